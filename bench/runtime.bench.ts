import { monitorEventLoopDelay } from 'node:perf_hooks';
import { last, lastValueFrom } from 'rxjs';
import { SyntheticSource } from '../connectors/file/synthetic-source.js';
import { BackpressureValve } from '../operators/backpressure-valve.js';
import { InProcessLearner } from '../operators/in-process-learner.js';
import { learn } from '../operators/learn.js';
import type { Learner } from '../operators/learner.js';
import { minibatch } from '../operators/minibatch.js';
import { WorkerLearner } from '../operators/worker/worker-learner.js';
import { getFamily } from '../src/registry.js';
import { formatCount } from './measure.js';

/**
 * Records/s through `learn` in a worker vs in-process, and the p99 event-loop delay during each
 * run: a chunked synthetic stream → minibatch(1000) → learn, behind a 20,000-record valve.
 * One line per family.
 */
const CASES: { family: string; dim: number; kind: 'logistic' | 'linear'; note: string }[] = [
  { family: 'vb-logit-online', dim: 10, kind: 'logistic', note: 'stateful, per-record Sherman–Morrison' },
  { family: 'vb-linear', dim: 10, kind: 'linear', note: 'additive sufficient statistics' },
  { family: 'direct', dim: 10, kind: 'linear', note: 'additive statistics (b=10); the L-BFGS fit waits for a read' },
];
const RECORDS = Number(process.env.VBSTREAM_BENCH_RECORDS ?? 100_000);

async function measure(learner: Learner, kind: 'logistic' | 'linear', dim: number): Promise<{ rate: number; p99: number }> {
  const source = new SyntheticSource({ kind, dim, seed: 1, records: RECORDS });
  const valve = new BackpressureValve(source, 20_000);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const start = performance.now();
  await lastValueFrom(source.records$.pipe(minibatch(1000), learn(learner, { valve }), last()));
  const elapsed = performance.now() - start;
  histogram.disable();
  return { rate: (RECORDS / elapsed) * 1000, p99: histogram.percentile(99) / 1e6 };
}

process.stdout.write(`learn(): ${formatCount(RECORDS)} synthetic records, minibatch 1000; event-loop delay sampled every 5 ms (resolution included)\n`);
process.stdout.write('family            p    where        records/s   p99 loop delay   note\n');
for (const { family, dim, kind, note } of CASES) {
  const inProcess = await measure(new InProcessLearner(getFamily(family).create(dim)), kind, dim);
  const worker = await WorkerLearner.create(family, dim);
  const remote = await measure(worker, kind, dim);
  await worker.close();
  for (const [where, r] of [['in-process', inProcess], ['worker', remote]] as const) {
    process.stdout.write(`${family.padEnd(17)} ${String(dim).padStart(2)}   ${where.padEnd(10)} ${formatCount(r.rate).padStart(11)} ${`${r.p99.toFixed(1)} ms`.padStart(16)}   ${note}\n`);
  }
}
