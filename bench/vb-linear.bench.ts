import type { Batch } from '../src/core/batch.js';
import { vbLinearArdFamily, vbLinearFamily, type VbLinearModel } from '../src/models/vb-linear/family.js';
import type { Family } from '../src/core/family.js';
import type { VbLinearOptions } from '../src/models/vb-linear/options.js';
import { Rng } from '../src/rng/rng.js';
import { formatCount, throughput } from './measure.js';

/**
 * Test-then-train (predict the record, then update with it; one record per update) on synthetic
 * linear data (half the weights 0, noise sd 0.5), after a first batch of 2p records. "from
 * scratch" is the behaviour before issue 16: every predict after an update refits the VB model
 * from E[α] = c0/d0 (here: a clone of the model, whose workspace is fresh); "warm" is the model
 * itself, whose fit starts from the last fit's E[α]. Also printed: the mean VB passes per fit and
 * the largest relative difference of the predicted means between the two.
 */
function gaussianRows(n: number, d: number, seed: number): Batch {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, (_, j) => (j % 2 === 0 ? rng.normal() : 0));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = rng.normal(); x[r * d + j] = v; s += w[j] * v; }
    y[r] = s + 0.5 * rng.normal();
  }
  return { x, y, n, d };
}

const out = (line: string) => process.stdout.write(`${line}\n`);

function run(family: Family<VbLinearOptions, VbLinearModel>, d: number): void {
  const data = gaussianRows(20_000, d, 100 + d);
  const prefix = 2 * d;
  const start = () => { const m = family.create(d); m.update({ x: data.x.subarray(0, prefix * d), y: data.y.subarray(0, prefix), n: prefix, d }); return m; };
  const measure = (fromScratch: boolean) => {
    let model = start();
    let cursor = prefix;
    let passes = 0;
    let fits = 0;
    const rate = throughput(() => {
      if (cursor >= data.n) { model = start(); cursor = prefix; }
      const reader = fromScratch ? model.clone() : model;
      reader.predict(data.x, cursor * d);
      passes += reader.posterior().iterations;
      fits++;
      model.update({ x: data.x.subarray(cursor * d, (cursor + 1) * d), y: data.y.subarray(cursor, cursor + 1), n: 1, d });
      cursor++;
      return 1;
    }, 1500);
    return { rate, passes: passes / fits };
  };
  const cold = measure(true);
  const warm = measure(false);
  // Agreement: the same 300 records, test-then-train, warm model against a from-scratch fit.
  const model = start();
  let worst = 0;
  for (let r = prefix; r < prefix + 300; r++) {
    const a = model.predict(data.x, r * d).mean;
    const b = model.clone().predict(data.x, r * d).mean;
    worst = Math.max(worst, Math.abs(a - b) / Math.max(1, Math.abs(b)));
    model.update({ x: data.x.subarray(r * d, (r + 1) * d), y: data.y.subarray(r, r + 1), n: 1, d });
  }
  out(`${family.id.padEnd(14)} ${String(d).padStart(4)} ${formatCount(cold.rate).padStart(14)} ${cold.passes.toFixed(1).padStart(7)} ${formatCount(warm.rate).padStart(12)} ${warm.passes.toFixed(1).padStart(7)} ${(warm.rate / cold.rate).toFixed(1).padStart(7)}   ${worst.toExponential(1)}`);
}

out('vb-linear test-then-train: records/s on one core (predict, then update with the record; 1 record per update)');
out('family            p   from scratch/s  passes      warm/s  passes   ratio   max rel. diff of predicted mean (300 records)');
for (const family of [vbLinearFamily, vbLinearArdFamily]) for (const d of [10, 25, 100]) run(family, d);
