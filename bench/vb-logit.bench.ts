import { vbLogitArdFamily, vbLogitFamily } from '../src/models/vb-logit/family.js';
import { vbLogitOnlineFamily } from '../src/models/vb-logit/online-family.js';
import { formatCount, medianMs, throughput, throughputWallAndCpu } from './measure.js';
import { NaiveVbLogitIter } from './naive-vb-logit-iter.js';
import { syntheticLogistic } from './synthetic-logistic.js';

const targets: Record<number, number> = { 10: 500_000, 25: 150_000, 100: 12_000 };

process.stdout.write('vb-logit-online: updates/s on one core from pre-parsed Float64Arrays (batches of 1,000 records)\n');
process.stdout.write('    p   vbstream/s (wall)   (CPU time)     target   naive ml-matrix/s   ratio   max|w - w_naive|\n');
for (const d of [10, 25, 100]) {
  const n = d === 100 ? 20_000 : 200_000;
  const data = syntheticLogistic(n, d, 42 + d);
  const block = 1000;
  let model = vbLogitOnlineFamily.create(d);
  let cursor = 0;
  const { wall: rate, cpu: cpuRate } = throughputWallAndCpu(() => {
    if (cursor + block > n) { model = vbLogitOnlineFamily.create(d); cursor = 0; }
    model.update({ x: data.x.subarray(cursor * d, (cursor + block) * d), y: data.y.subarray(cursor, cursor + block), n: block, d });
    cursor += block;
    return block;
  }, 1500);
  const naiveN = d === 100 ? 300 : 3000;
  let naive = new NaiveVbLogitIter(d);
  let naiveCursor = 0;
  const naiveRate = throughput(() => {
    if (naiveCursor + 100 > naiveN) { naive = new NaiveVbLogitIter(d); naiveCursor = 0; }
    for (let r = naiveCursor; r < naiveCursor + 100; r++) naive.update(data.x, r * d, 2 * data.y[r] - 1);
    naiveCursor += 100;
    return 100;
  }, 1500);
  const check = vbLogitOnlineFamily.create(d);
  const reference = new NaiveVbLogitIter(d);
  for (let r = 0; r < 200; r++) reference.update(data.x, r * d, 2 * data.y[r] - 1);
  check.update({ x: data.x.subarray(0, 200 * d), y: data.y.subarray(0, 200), n: 200, d });
  let diff = 0;
  for (let j = 0; j < d; j++) diff = Math.max(diff, Math.abs(check.posterior.w[j] - reference.w.get(j, 0)));
  process.stdout.write(`${String(d).padStart(5)} ${formatCount(rate).padStart(19)} ${formatCount(cpuRate).padStart(12)} ${formatCount(targets[d]).padStart(10)} ${formatCount(naiveRate).padStart(19)} ${(rate / naiveRate).toFixed(1).padStart(7)}   ${diff.toExponential(1)}\n`);
}

process.stdout.write('\nvb-logit batch fit (hyperprior), N = 10,000, D = 25 (Octave reference: 0.26 s on its 2-core VM)\n');
const data = syntheticLogistic(10_000, 25, 7);
let iterations = 0;
const ms = medianMs(() => {
  const model = vbLogitFamily.create(25);
  model.update({ x: data.x, y: data.y, n: 10_000, d: 25 });
  iterations = model.diagnostics.iterations;
}, 5);
const ardMs = medianMs(() => {
  const model = vbLogitArdFamily.create(25);
  model.update({ x: data.x, y: data.y, n: 10_000, d: 25 });
}, 5);
process.stdout.write(`  vb-logit:     ${ms.toFixed(1)} ms (${iterations} VB passes, ${(ms / iterations).toFixed(2)} ms per pass)\n  vb-logit-ard: ${ardMs.toFixed(1)} ms\n`);
