import { from, lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import type { Learner } from '../../operators/learner.js';
import { snapshots } from '../../operators/snapshots.js';
import type { UpdateEvent } from '../../operators/update-event.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { getFamily } from '../../src/registry.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const record = (v: number, row: number): LabelledRecord => ({ x: Float64Array.of(1, v), y: v, row, position: { source: 'file', offset: row } });

describe('snapshots(opts)', () => {
  it('every N records and on completion, each covering exactly the records and positions of its event', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(2);
      const records = Object.fromEntries('abcde'.split('').map((k, i) => [k, record(i * 0.5, i + 1)]));
      const out = cold('abcde|', records).pipe(learn(model), snapshots({ everyRecords: 2 }), map((s) => `${s.reason}:${s.recordsSeen}:${s.positions.file}:${getFamily('vb-linear').restore(s.snapshot).recordsSeen}`));
      expectObservable(out).toBe('-x-y-(z|)', { x: 'records:2:2:2', y: 'records:4:4:4', z: 'complete:5:5:5' });
    });
  });

  it('every T ms when records have passed, never twice for the same state, and stamps the scheduler time', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(2);
      const out = cold('a 15ms b 40ms |', { a: record(1, 1), b: record(2, 2) }).pipe(learn(model), snapshots({ everyMs: 10, onComplete: false }), map((s) => `${s.reason}:${s.recordsSeen}:${s.createdAt}`));
      expectObservable(out).toBe('10ms x 9ms y 36ms |', { x: 'interval:1:1970-01-01T00:00:00.010Z', y: 'interval:2:1970-01-01T00:00:00.020Z' });
    });
  });

  it('the interval counts from the last snapshot of any trigger, so a timer never follows another snapshot closely', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(2);
      const out = cold('a 5ms b 1ms c 20ms |', { a: record(1, 1), b: record(2, 2), c: record(3, 3) }).pipe(learn(model), snapshots({ everyRecords: 2, everyMs: 10, onComplete: false }), map((s) => `${s.reason}:${s.recordsSeen}`));
      expectObservable(out).toBe('6ms x 9ms y 12ms |', { x: 'records:2', y: 'interval:3' });
    });
  });

  it('passes an error through and stops the timer', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(2);
      expectObservable(cold('a 5ms #', { a: record(1, 1) }).pipe(learn(model), snapshots({ everyMs: 3 }), map((s) => s.recordsSeen))).toBe('3ms a 2ms #', { a: 1 });
    });
  });

  it('waits for asynchronous (worker) snapshots, keeps them in order, and completes after the last', async () => {
    let state = 0;
    const asyncLearner: Learner = {
      family: 'f', dim: 1, get recordsSeen() { return state; },
      learn: async (batch) => { state += batch.n; return { stats: { records: batch.n }, recordsSeen: state, rejected: [], durationMs: 0 }; },
      snapshot: () => { const at = state; return new Promise<ModelSnapshot>((r) => setTimeout(() => r({ family: 'f', version: 1, dim: 1, header: { at }, arrays: {} }), 10 - at)); },
    };
    const events = await lastValueFrom(from([1, 2, 3, 4, 5].map((v) => ({ x: Float64Array.of(v), y: v, row: v }))).pipe(learn(asyncLearner), snapshots({ everyRecords: 2 }), toArray()));
    expect(events.map((e) => [e.reason, e.recordsSeen, e.snapshot.header.at])).toEqual([['records', 2, 2], ['records', 4, 4], ['complete', 5, 5]]);
  });

  it('an empty stream gives no snapshot; bad options are refused', async () => {
    expect(await lastValueFrom(from([] as UpdateEvent[]).pipe(snapshots({ everyRecords: 1 }), toArray()))).toEqual([]);
    expect(() => snapshots({ everyRecords: 0 })).toThrow(ConfigError);
    expect(() => snapshots({ everyMs: -5 })).toThrow(ConfigError);
  });
});
