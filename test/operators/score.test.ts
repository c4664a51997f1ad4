import { lastValueFrom, map, of, Subject, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { BadRecord } from '../../operators/bad-record.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import type { Prediction } from '../../operators/prediction.js';
import { score } from '../../operators/score.js';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import { makeBatch } from '../../src/core/make-batch.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { families, getFamily } from '../../src/registry.js';
import { taskRecords } from '../helpers/task-data.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const query = (x: number[], row: number): LabelledRecord => ({ x: Float64Array.from(x), y: Number.NaN, row });

function trained(n: number): OnlineModel {
  const model = getFamily('vb-linear').create(2);
  model.update(makeBatch(Array.from({ length: n }, (_, i) => [1, i]), Array.from({ length: n }, (_, i) => 2 * i + 1)));
  return model;
}

describe('score(posterior$)', () => {
  it('joins each record with the latest posterior; early records wait for the first one', () => {
    scheduler().run(({ cold, hot, expectObservable }) => {
      const first = trained(5).snapshot();
      const second = trained(50);
      const posterior$ = hot('--p----q', { p: first, q: second });
      const records = cold('a-b---c-d|', { a: query([1, 1], 1), b: query([1, 2], 2), c: query([1, 3], 3), d: query([1, 4], 4) });
      const out = records.pipe(score(posterior$), map((p: Prediction) => `${p.record.row}@${p.recordsSeen}`));
      expectObservable(out).toBe('--(ab)c-d|', { a: '1@5', b: '2@5', c: '3@5', d: '4@50' });
    });
  });

  it('errors when either input errors; completes when the records do', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const p = trained(3);
      expectObservable(cold('a-#', { a: query([1, 1], 1) }).pipe(score(cold('p', { p })), map((_, i) => i + 1))).toBe('a-#', { a: 1 });
      expectObservable(cold('a---', { a: query([1, 1], 1) }).pipe(score(cold('p-#', { p })), map((_, i) => i + 1))).toBe('a-#', { a: 1 });
      expectObservable(cold('a|', { a: query([1, 1], 1) }).pipe(score(cold('p', { p })), map((_, i) => i + 1))).toBe('a|', { a: 1 });
    });
  });

  it('gives the mean, variance and a credible interval at the level, and the log-loss of labelled records', async () => {
    const model = trained(20);
    const [p] = await lastValueFrom(of({ x: Float64Array.of(1, 2), y: 5, row: 1 }).pipe(score(of(model), { level: 0.5 }), toArray()));
    const direct = model.predict(Float64Array.of(1, 2));
    expect(p.mean).toBe(direct.mean);
    expect(p.variance).toBe(direct.variance);
    expect(p.interval).toEqual(direct.interval(0.5));
    expect(p.logLoss).toBe(-direct.logProb(5));
    expect(() => score(of(model), { level: 1 })).toThrow(ConfigError);
  });

  it('routes unscorable records aside and keeps going; with no posterior at all they go aside too', async () => {
    const seen: BadRecord[] = [];
    const bad = new Subject<BadRecord>();
    bad.subscribe((b) => seen.push(b));
    const out = await lastValueFrom(of(query([1, Number.POSITIVE_INFINITY], 1), query([1], 2), query([1, 0], 3)).pipe(score(of(trained(4)), { badRecords: bad }), toArray()));
    expect(out.map((p) => p.record.row)).toEqual([3]);
    expect(seen.map((b) => b.reason)).toEqual([expect.stringMatching(/feature is not finite \(row 1, column 2/), expect.stringMatching(/record has 1 features but the model has 2 \(row 2/)]);
    const none = await lastValueFrom(of(query([1, 0], 9)).pipe(score(of<OnlineModel>()), toArray()));
    expect(none).toEqual([]);
    seen.length = 0;
    await lastValueFrom(of(query([1, 0], 9)).pipe(score(of<OnlineModel>(), { badRecords: bad }), toArray()));
    expect(seen[0].error).toBeInstanceOf(InputError);
  });

  it.each([...families.keys()])('%s: a restored snapshot scores like the live model', async (id) => {
    const family = getFamily(id);
    const records = taskRecords(family.task, 60, 3, 5);
    const model = family.create(3);
    model.update(makeBatch(records.map((r) => Array.from(r.x)), records.map((r) => r.y)));
    const [a, b] = await Promise.all([model, model.snapshot()].map((p) => lastValueFrom(of(...records.slice(0, 5)).pipe(score(of(p)), toArray()))));
    expect(b.map((p) => [p.mean, p.variance])).toEqual(a.map((p) => [p.mean, p.variance]));
    expect(a.every((p) => Number.isFinite(p.mean) && p.variance >= 0 && p.interval[0] <= p.interval[1])).toBe(true);
  });
});

describe('score(posterior$) with a snapshot that is not a posterior (issue 26, item 15)', () => {
  it('a pg-logit snapshot with a zero or NaN in its Cholesky factor errors the stream with a SnapshotError instead of predicting NaN or never returning', async () => {
    const model = getFamily('pg-logit').create(2);
    model.update(makeBatch([[1, 0.5], [1, -1], [1, 2]], [1, 0, 1]));
    for (const value of [0, Number.NaN]) {
      const snapshot = model.snapshot();
      const factor = snapshot.arrays.factor.slice();
      factor[3] = value;
      const bad = { ...snapshot, arrays: { ...snapshot.arrays, factor } };
      await expect(lastValueFrom(of(query([1e3, 1], 1)).pipe(score(of(bad))))).rejects.toThrow(SnapshotError);
      await expect(lastValueFrom(of(query([1e3, 1], 1)).pipe(score(of(bad))))).rejects.toThrow(/pg-logit snapshot refused: "factor" .* at index 3/);
    }
  });
});
