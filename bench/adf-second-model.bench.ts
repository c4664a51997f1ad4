import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { adfLogitFamily } from '../src/models/adf/family.js';
import { median } from './measure.js';
import { syntheticLogistic } from './synthetic-logistic.js';

/**
 * What a second `adf-logit` model in a process pays for its start: test-then-train (predict, then
 * update with the record) at p = 10, records per CPU-second of the first model's first and second
 * 10,000 records (JIT warm-up, then steady state), then of a second and a third model's first
 * 10,000 records, made one after the other, each process fresh (`PROCESSES` of them, median and
 * range shown). Code V8 compiled against the first model and threw away when the second was made
 * shows as a second model slower than the third (which starts on code that has seen two models).
 */
const D = 10;
const CHUNK = 10_000;
const PROCESSES = 7;
const out = (line: string) => process.stdout.write(`${line}\n`);

/** Records per CPU-second of test-then-train over records `from` .. `from + CHUNK` of `data`. */
function rate(model: ReturnType<typeof adfLogitFamily.create>, data: ReturnType<typeof syntheticLogistic>, from: number): number {
  const start = process.cpuUsage();
  for (let r = from; r < from + CHUNK; r++) {
    model.predict(data.x, r * D);
    model.update({ x: data.x.subarray(r * D, (r + 1) * D), y: data.y.subarray(r, r + 1), n: 1, d: D });
  }
  const cpu = process.cpuUsage(start);
  return (CHUNK / (cpu.user + cpu.system)) * 1e6;
}

if (process.argv[2] === 'child') {
  const data = syntheticLogistic(2 * CHUNK, D, 52);
  const first = adfLogitFamily.create(D);
  const cold = rate(first, data, 0);
  const steady = rate(first, data, CHUNK);
  const second = rate(adfLogitFamily.create(D), data, 0);
  const third = rate(adfLogitFamily.create(D), data, 0);
  out(JSON.stringify({ cold, steady, second, third }));
} else {
  const runs: { cold: number; steady: number; second: number; third: number }[] = [];
  for (let k = 0; k < PROCESSES; k++) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'child'], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`child process failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout) as { cold: number; steady: number; second: number; third: number });
  }
  const show = (values: number[], digits = 0) => `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  out(`adf-logit test-then-train at p = ${D}, records per CPU-second in thousands, median (range) of ${PROCESSES} fresh processes:`);
  out(`  first model, records 1–${CHUNK}:            ${show(runs.map((r) => r.cold / 1000))}`);
  out(`  first model, records ${CHUNK + 1}–${2 * CHUNK}:       ${show(runs.map((r) => r.steady / 1000))}`);
  out(`  second model, records 1–${CHUNK}:           ${show(runs.map((r) => r.second / 1000))}`);
  out(`  third model, records 1–${CHUNK}:            ${show(runs.map((r) => r.third / 1000))}`);
  out(`  second model / third model (same process):  ${show(runs.map((r) => r.second / r.third), 2)}`);
}
