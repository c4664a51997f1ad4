import { from, lastValueFrom, map, Subject, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { BackpressureValve } from '../../operators/backpressure-valve.js';
import type { BadRecord } from '../../operators/bad-record.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import { LEARN_WINDOW } from '../../operators/learn-window.js';
import type { Learner } from '../../operators/learner.js';
import { minibatch } from '../../operators/minibatch.js';
import { packRecords } from '../../operators/pack-records.js';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import { NumericalError } from '../../src/core/numerical-error.js';
import { ShapeError } from '../../src/core/shape-error.js';
import { families, getFamily } from '../../src/registry.js';
import { PendingLearner } from '../helpers/pending-learner.js';
import { expectSameState } from '../helpers/same-state.js';
import { taskRecords } from '../helpers/task-data.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const record = (x: number[], y: number, row: number): LabelledRecord => ({ x: Float64Array.from(x), y, row, position: { source: 's', offset: row } });
/** Lets the answered calls' promise callbacks run. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('learn(model)', () => {
  it('emits one update event per record, in step, and completes with the source', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-logit-online').create(2);
      const values = { a: record([1, 0.5], 1, 1), b: record([1, -2], 0, 2) };
      const events = cold('a-b|', values).pipe(learn(model));
      expectObservable(events.pipe(map((e) => e.recordsSeen))).toBe('a-b|', { a: 1, b: 2 });
    });
  });

  it('passes a source error through after the events before it', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(1);
      expectObservable(cold('a#', { a: record([1], 0.3, 1) }).pipe(learn(model), map((e) => e.recordsSeen))).toBe('a#', { a: 1 });
    });
  });

  it('errors the stream on a non-input failure of the model (numerical)', async () => {
    const failing: Learner = { family: 'f', dim: 1, recordsSeen: 0, learn: () => { throw new NumericalError('matrix is not positive definite'); }, snapshot: () => { throw new Error('unused'); } };
    await expect(lastValueFrom(from([record([1], 1, 1)]).pipe(learn(failing)))).rejects.toBeInstanceOf(NumericalError);
  });

  it('sends bad records to the side-channel with row and reason, keeps going, and leaves the model as if they never came', async () => {
    const model = getFamily('vb-logit').create(2);
    const reference = getFamily('vb-logit').create(2);
    const bad = new Subject<BadRecord>();
    const seen: BadRecord[] = [];
    bad.subscribe((b) => seen.push(b));
    const records = [record([1, 0.5], 1, 1), record([1, Number.NaN], 0, 2), record([1, 0.2], 7, 3), record([1, -1], 0, 4), record([1, 2, 3], 1, 5), record([1, 0.1], 1, 6)];
    const events = await lastValueFrom(from(records).pipe(minibatch(4), learn(model, { badRecords: bad }), toArray()));
    expect(seen.map((b) => b.error)).toEqual([expect.any(InputError), expect.any(InputError), expect.any(ShapeError)]);
    expect(seen.map((b) => (b.record as LabelledRecord).row)).toEqual([2, 3, 5]);
    expect(seen[0].reason).toMatch(/feature is not finite \(row 2, column 2, value NaN\)/);
    expect(seen[1].reason).toMatch(/binary label must be 0\/1 or -1\/1 \(row 3, column y, value 7\)/);
    expect(events.map((e) => [e.offered, e.rejected, e.stats.records])).toEqual([[4, 2, 2], [2, 1, 1]]);
    expect(events[1].positions).toEqual({ s: 6 });
    reference.update(packRecords([records[0], records[3]], 2).batch);
    reference.update(packRecords([records[5]], 2).batch);
    expectSameState(model.snapshot(), reference.snapshot());
  });

  it('refuses a finite but huge record (1e200) as input, out of range, and learns the rest of its minibatch as if it never came (issue 26, item 6)', async () => {
    const model = getFamily('vb-logit-online').create(2);
    const reference = getFamily('vb-logit-online').create(2);
    const seen: BadRecord[] = [];
    const records = [record([1, 0.5], 1, 1), record([1, 1e200], 0, 2), record([1, -0.3], 0, 3), record([1, 2], 1, 4)];
    const events = await lastValueFrom(from(records).pipe(minibatch(4), learn(model, { badRecords: { next: (b) => seen.push(b) }, evaluate: true }), toArray()));
    expect(seen.map((b) => [b.error, (b.record as LabelledRecord).row])).toEqual([[expect.any(InputError), 2]]);
    expect(seen[0].reason).toBe('feature is out of range: |value| > maxAbsInput (1e+12) (row 2, column 2, value 1e+200)');
    expect(events.map((e) => [e.offered, e.rejected, e.stats.records])).toEqual([[4, 1, 3]]);
    reference.update(packRecords([records[0], records[2], records[3]], 2).batch);
    expectSameState(model.snapshot(), reference.snapshot());
  });

  it('with a valve, pauses the source when the queue is full and resumes it when it drains', async () => {
    const calls: string[] = [];
    const valve = new BackpressureValve({ pause: () => calls.push('pause'), resume: () => calls.push('resume') }, 4, 1);
    const slow: Learner = {
      family: 'slow', dim: 1, recordsSeen: 0,
      learn: async (batch) => { await new Promise((r) => setTimeout(r, 1)); return { stats: { records: batch.n }, recordsSeen: 0, rejected: [], durationMs: 0 }; },
      snapshot: () => { throw new Error('unused'); },
    };
    const depths: number[] = [];
    const subject = new Subject<LabelledRecord>();
    const done = lastValueFrom(subject.pipe(learn(slow, { valve }), toArray()));
    for (let i = 1; i <= 6; i++) { subject.next(record([i], 0, i)); depths.push(valve.depth); }
    subject.complete();
    const events = await done;
    expect(depths).toEqual([1, 2, 3, 4, 5, 6]);
    expect(calls).toEqual(['pause', 'resume']);
    expect(events.map((e) => e.queueDepth)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(valve.depth).toBe(0);
    expect(() => new BackpressureValve({ pause() {}, resume() {} }, 0)).toThrow(ConfigError);
  });

  it('hands each item to an asynchronous learner as it arrives, without waiting for the answers before it (a worker is never idle between chunks), and emits the events in order', async () => {
    const answers: ((recordsSeen: number) => void)[] = [];
    const pending: Learner = {
      family: 'pending', dim: 1, recordsSeen: 0,
      learn: (batch) => new Promise((resolve) => answers.push((recordsSeen) => resolve({ stats: { records: batch.n }, recordsSeen, rejected: [], durationMs: 0 }))),
      snapshot: () => { throw new Error('unused'); },
    };
    const subject = new Subject<LabelledRecord>();
    const done = lastValueFrom(subject.pipe(learn(pending), map((e) => e.positions.s), toArray()));
    for (let i = 1; i <= 3; i++) subject.next(record([i], 0, i));
    subject.complete();
    expect(answers).toHaveLength(3);
    answers[2](3);
    answers[0](1);
    answers[1](2);
    expect(await done).toEqual([1, 2, 3]);
  });

  it('a learn call that fails errors the stream once; the calls already handed on after it raise no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => { unhandled.push(reason); };
    process.on('unhandledRejection', listener);
    try {
      const failing: Learner = {
        family: 'failing', dim: 1, recordsSeen: 0,
        learn: (_batch, rows) => (rows[0] === 1 ? Promise.resolve({ stats: { records: 1 }, recordsSeen: 1, rejected: [], durationMs: 0 }) : Promise.reject(new NumericalError(`call for row ${rows[0]} failed`))),
        snapshot: () => { throw new Error('unused'); },
      };
      const subject = new Subject<LabelledRecord>();
      const done = lastValueFrom(subject.pipe(learn(failing), toArray()));
      for (let i = 1; i <= 3; i++) subject.next(record([i], 0, i));
      await expect(done).rejects.toThrow(/call for row 2 failed/);
      await settled();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  it(`a slow learner behind a fast source is handed at most ${LEARN_WINDOW} calls not yet answered: the rest wait in learn (counted by the valve) and are handed on, in order, as answers come`, async () => {
    const slow = new PendingLearner();
    const valve = new BackpressureValve({ pause() {}, resume() {} }, 1_000);
    const subject = new Subject<LabelledRecord>();
    const done = lastValueFrom(subject.pipe(learn(slow, { valve }), map((e) => e.positions.s), toArray()));
    for (let i = 1; i <= 40; i++) subject.next(record([i], 0, i));
    subject.complete();
    expect(slow.handed).toBe(LEARN_WINDOW);
    expect(valve.depth).toBe(40);
    while (slow.inFlight > 0) {
      slow.answerNext();
      await settled();
    }
    expect(slow.handed).toBe(40);
    expect(slow.maxInFlight).toBe(LEARN_WINDOW);
    expect(valve.depth).toBe(0);
    expect(await done).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it.each([...families.keys()])('%s: learning minibatches through the operator equals direct updates, bit for bit', async (id) => {
    const family = getFamily(id);
    const records = taskRecords(family.task, 120, 3, 11);
    const model = family.create(3);
    const direct = family.create(3);
    await lastValueFrom(from(records).pipe(minibatch(40), learn(model), toArray()));
    for (let i = 0; i < records.length; i += 40) direct.update(packRecords(records.slice(i, i + 40), 3).batch);
    expect(model.recordsSeen).toBe(120);
    expectSameState(model.snapshot(), direct.snapshot());
  });
});
