import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { from, lastValueFrom, Observable, Subject, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import type { Learner } from '../../operators/learner.js';
import { minibatch } from '../../operators/minibatch.js';
import { prequential } from '../../operators/prequential.js';
import { score } from '../../operators/score.js';
import { snapshots } from '../../operators/snapshots.js';
import type { UpdateEvent } from '../../operators/update-event.js';
import { WorkerLearner } from '../../operators/worker/worker-learner.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import type { SnapshotEvent } from '../../src/core/snapshot-event.js';
import { getFamily } from '../../src/registry.js';
import { taskRecords } from '../helpers/task-data.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-edges-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('interval snapshots in worker mode (issue 14, item 1)', () => {
  it('every snapshot holds exactly the records of the positions it stores, while later minibatches are queued in the worker', async () => {
    const records = taskRecords('regression', 40_000, 4, 3).map((r, i) => ({ ...r, position: { source: 's', offset: i + 1 } }));
    const worker = await WorkerLearner.create('vb-linear', 4);
    try {
      const subject = new Subject<LabelledRecord>();
      const done = lastValueFrom(subject.pipe(minibatch(256), learn(worker), snapshots({ everyMs: 2 }), toArray()));
      for (let i = 0; i < records.length; i += 2_000) {
        for (const record of records.slice(i, i + 2_000)) subject.next(record);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      subject.complete();
      const taken = await done;
      const intervals = taken.filter((s) => s.reason === 'interval');
      expect(intervals.length).toBeGreaterThan(3);
      for (const event of taken) {
        const inState = getFamily('vb-linear').restore(event.snapshot).recordsSeen;
        expect([inState, event.recordsSeen]).toEqual([event.positions.s, event.positions.s]);
      }
      expect(taken.at(-1)!.positions.s).toBe(40_000);
    } finally {
      await worker.close();
    }
  });
});

describe('SnapshotDirectory paths (issue 14, item 2)', () => {
  const event = (): SnapshotEvent => {
    const model = getFamily('vb-linear').create(2);
    return { snapshot: model.snapshot(), recordsSeen: 0, positions: {}, createdAt: '2025-01-01T00:00:00.000Z', reason: 'records' };
  };
  const absolute = join(work, 'spelt');
  const fromCwd = relative(process.cwd(), absolute);
  it.each([
    ['./relative', `./${fromCwd}-a`],
    ['trailing slash', `${fromCwd}-b/`],
    ['with ..', `${fromCwd}/../${basename(absolute)}-c`],
    ['absolute with ./ and //', `${absolute}-d/.//`],
  ])('saves twice and restores the newest when the directory is written %s', async (_, dir) => {
    const store = new SnapshotDirectory(dir, 3);
    const first = await store.save(event());
    const second = await store.save(event());
    expect(second > first).toBe(true);
    expect((await store.list()).length).toBe(2);
    expect((await store.restoreLatest())!.path).toBe(second);
  });
});

describe('operator errors reach the error channel (issue 14, item 12)', () => {
  const throwing = (message: string): OnlineModel => ({
    family: 'broken', dim: 1, recordsSeen: 0,
    update: () => ({ records: 0 }), predict: () => { throw new Error(message); },
    sample: () => new Float64Array(1), posteriorMean: () => new Float64Array(1),
    summary: () => ({ meanNorm: 0, effectiveDataSize: 0 }), snapshot: () => { throw new Error(message); },
  });
  const record: LabelledRecord = { x: Float64Array.of(1), y: 1, row: 1 };

  it('score: a predict that throws (not a bad record) errors the stream', async () => {
    await expect(lastValueFrom(from([record]).pipe(score(from([throwing('predict failed')]))))).rejects.toThrow('predict failed');
  });

  it('score: a posterior that cannot be restored errors the stream', async () => {
    await expect(lastValueFrom(from([record]).pipe(score(from([{ family: 'nope', version: 1, dim: 1, header: {}, arrays: {} }]))))).rejects.toThrow(/unknown model family/);
  });

  it('snapshots: a learner whose snapshot throws errors the stream (on a record trigger, a timer and completion)', async () => {
    const learner: Learner = { family: 'f', dim: 1, recordsSeen: 0, learn: (batch) => ({ stats: { records: batch.n }, recordsSeen: 0, rejected: [], durationMs: 0 }), snapshot: () => { throw new Error('state unavailable'); } };
    await expect(lastValueFrom(from([record]).pipe(learn(learner), snapshots({ everyRecords: 1 })))).rejects.toThrow('state unavailable');
    await expect(lastValueFrom(from([record]).pipe(learn(learner), snapshots()))).rejects.toThrow('state unavailable');
    const slow = new Observable<LabelledRecord>((s) => { s.next(record); const t = setTimeout(() => s.complete(), 50); return () => clearTimeout(t); });
    await expect(lastValueFrom(slow.pipe(learn(learner), snapshots({ everyMs: 5, onComplete: false })))).rejects.toThrow('state unavailable');
  });

  it('prequential: a malformed event errors the stream rather than throwing out of the observer', async () => {
    const broken = { labels: Float64Array.of(1), scores: { kind: 'bernoulli', mean: null, variance: null, logLoss: null } } as unknown as UpdateEvent;
    await expect(lastValueFrom(from([broken]).pipe(prequential()))).rejects.toBeInstanceOf(TypeError);
  });
});
