import { from, lastValueFrom, map, Subject, tap, toArray, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import { LEARN_WINDOW } from '../../operators/learn-window.js';
import type { Learner } from '../../operators/learner.js';
import { snapshots } from '../../operators/snapshots.js';
import type { UpdateEvent } from '../../operators/update-event.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { getFamily } from '../../src/registry.js';
import { PendingLearner } from '../helpers/pending-learner.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const record = (v: number, row: number): LabelledRecord => ({ x: Float64Array.of(1, v), y: v, row, position: { source: 'file', offset: row } });
/** Lets the answered calls' promise callbacks run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** A clock the test moves by hand (`advance`), for the interval trigger among promises. */
function handClock(): { scheduler: VirtualTimeScheduler; advance: (ms: number) => void } {
  const scheduler = new VirtualTimeScheduler();
  return {
    scheduler,
    advance: (ms) => {
      const to = scheduler.frame + ms;
      scheduler.maxFrames = to;
      scheduler.flush();
      scheduler.frame = to;
    },
  };
}

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
    // Each record arrives after the one before it is learned and its snapshot asked for (a learner is handed records as they come, so a snapshot covers all handed on before it).
    const records = new Subject<LabelledRecord>();
    const feed = (v: number): void => { if (v <= 5) records.next({ x: Float64Array.of(v), y: v, row: v }); else records.complete(); };
    const done = lastValueFrom(records.pipe(learn(asyncLearner), tap((e) => setImmediate(() => feed(e.recordsSeen + 1))), snapshots({ everyRecords: 2 }), toArray()));
    feed(1);
    const events = await done;
    expect(events.map((e) => [e.reason, e.recordsSeen, e.snapshot.header.at])).toEqual([['records', 2, 2], ['records', 4, 4], ['complete', 5, 5]]);
  });

  it(`while a slow learner lags a fast source, every interval snapshot comes within ${LEARN_WINDOW} answers (it covers the calls handed on, not every record queued), with state and positions from the same point`, async () => {
    const slow = new PendingLearner(2);
    const clock = handClock();
    const subject = new Subject<LabelledRecord>();
    const taken: { reason: string; recordsSeen: number; state: unknown; position: number }[] = [];
    subject.pipe(learn(slow), snapshots({ everyMs: 10, onComplete: false, scheduler: clock.scheduler })).subscribe((s) => taken.push({ reason: s.reason, recordsSeen: s.recordsSeen, state: s.snapshot.header.recordsSeen, position: s.positions.file }));
    for (let i = 1; i <= 200; i++) subject.next(record(i, i));
    for (let round = 1; round <= 5; round++) {
      slow.answerNext();
      await settled();
      const before = slow.recordsSeen;
      clock.advance(10);
      let answers = 0;
      while (taken.length < round && answers < 150) {
        slow.answerNext();
        answers++;
        await settled();
      }
      expect(taken).toHaveLength(round);
      expect(answers).toBeLessThanOrEqual(LEARN_WINDOW);
      expect(taken[round - 1]).toEqual({ reason: 'interval', recordsSeen: taken[round - 1].position, state: taken[round - 1].position, position: expect.any(Number) });
      expect(taken[round - 1].position).toBeLessThanOrEqual(before + LEARN_WINDOW);
    }
    subject.complete();
  });

  it('a snapshot on request covers every record learn has received, also those still waiting behind a slow learner, and is taken once they are learned', async () => {
    const slow = new PendingLearner(2);
    const requests = new Subject<'records'>();
    const subject = new Subject<LabelledRecord>();
    const taken: { recordsSeen: number; state: unknown; position: number }[] = [];
    subject.pipe(learn(slow), snapshots({ requests, onComplete: false })).subscribe((s) => taken.push({ recordsSeen: s.recordsSeen, state: s.snapshot.header.recordsSeen, position: s.positions.file }));
    for (let i = 1; i <= 20; i++) subject.next(record(i, i));
    slow.answerNext();
    await settled();
    requests.next('records');
    for (let i = 2; i <= 20; i++) {
      expect(taken).toEqual([]);
      slow.answerNext();
      await settled();
    }
    expect(taken).toEqual([{ recordsSeen: 20, state: 20, position: 20 }]);
    subject.complete();
  });

  it('an empty stream gives no snapshot; bad options are refused', async () => {
    expect(await lastValueFrom(from([] as UpdateEvent[]).pipe(snapshots({ everyRecords: 1 }), toArray()))).toEqual([]);
    expect(() => snapshots({ everyRecords: 0 })).toThrow(ConfigError);
    expect(() => snapshots({ everyMs: -5 })).toThrow(ConfigError);
  });
});
