import { existsSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { from, lastValueFrom, last, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import { SyntheticSource } from '../../connectors/file/synthetic-source.js';
import { BackpressureValve } from '../../operators/backpressure-valve.js';
import type { BadRecord } from '../../operators/bad-record.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import { minibatch } from '../../operators/minibatch.js';
import { packRecords } from '../../operators/pack-records.js';
import { snapshots } from '../../operators/snapshots.js';
import { modelWorkerPath } from '../../operators/worker/model-worker-path.js';
import { ParallelAccumulator } from '../../operators/worker/parallel-accumulator.js';
import { WorkerLearner } from '../../operators/worker/worker-learner.js';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { families, getFamily } from '../../src/registry.js';
import { expectSameState } from '../helpers/same-state.js';
import { taskRecords } from '../helpers/task-data.js';

const open: WorkerLearner[] = [];
afterAll(async () => { await Promise.all(open.map((w) => w.close())); });
async function worker(family: string, dim: number, options?: Record<string, number>): Promise<WorkerLearner> {
  const w = await WorkerLearner.create(family, dim, options);
  open.push(w);
  return w;
}

function synthetic(kind: 'logistic' | 'linear', n: number, dim: number, seed: number): LabelledRecord[] {
  const generator = new SyntheticGenerator({ kind, dim, seed });
  return Array.from({ length: n }, (_, i) => { const x = new Float64Array(dim); return { x, y: generator.next(x), row: i + 1 }; });
}

describe('model worker', () => {
  it('runs compiled JavaScript from dist/ (npm test builds first; a missing build fails here, loudly)', () => {
    const path = modelWorkerPath();
    expect(path).toMatch(/dist\/operators\/worker\/model-worker\.js$/);
    expect(existsSync(path)).toBe(true);
  });

  it.each([...families.keys()])('%s: learning in a worker equals learning in-process, bit for bit, and the snapshot comes back whole', async (id) => {
    const family = getFamily(id);
    const records = taskRecords(family.task, 200, 4, 21);
    const remote = await worker(id, 4);
    const local = family.create(4);
    const [a, b] = await Promise.all([remote, local].map((m) => lastValueFrom(from(records).pipe(minibatch(50), learn(m, { evaluate: true }), toArray()))));
    expect(a.map((e) => Array.from(e.scores!.logLoss))).toEqual(b.map((e) => Array.from(e.scores!.logLoss)));
    expect(remote.recordsSeen).toBe(200);
    expectSameState(await remote.snapshot(), local.snapshot());
  });

  it('100,000 records through learn in a worker equal the same model updated in-process (vb-logit-online, exact)', async () => {
    const records = synthetic('logistic', 100_000, 10, 3);
    const remote = await worker('vb-logit-online', 10);
    const [event] = await lastValueFrom(from(records).pipe(minibatch(1000), learn(remote), snapshots(), toArray()));
    const local = getFamily('vb-logit-online').create(10);
    for (let i = 0; i < records.length; i += 1000) local.update(packRecords(records.slice(i, i + 1000), 10).batch);
    expect(event.recordsSeen).toBe(100_000);
    expectSameState(event.snapshot, local.snapshot());
  });

  it('learn calls sent without waiting are applied in the order sent, and a snapshot asked for after them holds them all (vb-logit-online)', async () => {
    const records = synthetic('logistic', 40_000, 6, 8);
    const remote = await worker('vb-logit-online', 6);
    const chunks = Array.from({ length: 80 }, (_, k) => packRecords(records.slice(k * 500, (k + 1) * 500), 6));
    const sent = chunks.map(({ batch, rows }) => remote.learn(batch, rows, false));
    const snapshot = remote.snapshot();
    const outcomes = await Promise.all(sent);
    expect(outcomes.map((o) => o.recordsSeen)).toEqual(chunks.map((_, k) => (k + 1) * 500));
    const local = getFamily('vb-logit-online').create(6);
    for (let i = 0; i < records.length; i += 500) local.update(packRecords(records.slice(i, i + 500), 6).batch);
    expectSameState(await snapshot, local.snapshot());
  });

  it('bad records come back from the worker as typed errors at their stream rows; the model is untouched by them', async () => {
    const remote = await worker('vb-logit-online', 2);
    const local = getFamily('vb-logit-online').create(2);
    const bad: BadRecord[] = [];
    const records: LabelledRecord[] = [{ x: Float64Array.of(1, 2), y: 1, row: 10 }, { x: Float64Array.of(1, Number.NaN), y: 0, row: 11 }, { x: Float64Array.of(1, 0), y: 3, row: 12 }, { x: Float64Array.of(1, -1), y: 0, row: 13 }];
    await lastValueFrom(from(records).pipe(minibatch(4), learn(remote, { badRecords: { next: (b) => bad.push(b) } })));
    expect(bad.map((b) => b.error)).toEqual([expect.any(InputError), expect.any(InputError)]);
    expect(bad.map((b) => b.reason)).toEqual([expect.stringMatching(/row 11, column 2, value NaN/), expect.stringMatching(/row 12, column y, value 3/)]);
    local.update(packRecords([records[0], records[3]], 2).batch);
    expectSameState(await remote.snapshot(), local.snapshot());
  });

  it('refuses bad options and foreign snapshots with typed errors', async () => {
    await expect(WorkerLearner.create('vb-logit', 2, { tol: -1 })).rejects.toBeInstanceOf(ConfigError);
    await expect(WorkerLearner.create('nope', 2)).rejects.toThrow(/unknown model family "nope"/);
    const snapshot = getFamily('vb-linear').create(2).snapshot();
    await expect(WorkerLearner.restore({ ...snapshot, version: 42 })).rejects.toBeInstanceOf(SnapshotError);
    const restored = await WorkerLearner.restore(snapshot);
    open.push(restored);
    expectSameState(await restored.snapshot(), snapshot);
  });

  it('fans additive work out over workers and merges it: equals one model fed every batch (vb-linear)', async () => {
    const records = synthetic('linear', 4000, 5, 6);
    const batches = Array.from({ length: 8 }, (_, k) => packRecords(records.slice(k * 500, k * 500 + 500), 5).batch);
    const direct = getFamily('vb-linear').create(5);
    for (const batch of batches) direct.update(batch);
    const merged = getFamily('vb-linear').create(5);
    const accumulator = new ParallelAccumulator(2);
    try {
      await accumulator.accumulate(merged, batches.map((b) => ({ ...b, x: b.x.slice(), y: b.y.slice() })));
    } finally {
      await accumulator.close();
    }
    expect(merged.recordsSeen).toBe(4000);
    const a = merged.posteriorMean();
    const b = direct.posteriorMean();
    for (let j = 0; j < 5; j++) expect(Math.abs(a[j] - b[j])).toBeLessThan(1e-9 * (1 + Math.abs(b[j])));
  });

  it('the event loop stays responsive while a worker trains at full speed', async () => {
    const source = new SyntheticSource({ kind: 'logistic', dim: 10, seed: 9, records: 200_000 });
    const remote = await worker('vb-logit-online', 10);
    const valve = new BackpressureValve(source, 20_000);
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const start = performance.now();
    await lastValueFrom(source.records$.pipe(minibatch(1000), learn(remote, { valve }), last()));
    const seconds = (performance.now() - start) / 1000;
    histogram.disable();
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    process.stdout.write(`event-loop delay while a worker learns 200k synthetic records (vb-logit-online p=10, ${Math.round(200_000 / seconds)} records/s): p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms (5 ms sampling resolution included)\n`);
    expect(remote.recordsSeen).toBe(200_000);
    expect(histogram.percentile(99) / 1e6).toBeLessThan(1000); // generous: the machine's other load counts too
  });
});
