import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { NumericalError } from '../../src/core/numerical-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { adfLogitFamily } from '../../src/models/adf/family.js';
import { vbLogitOnlineFamily } from '../../src/models/vb-logit/online-family.js';
import { createModel } from '../../src/registry.js';
import { expectSameState } from '../helpers/same-state.js';
import { driftingLogistic as drifting } from '../helpers/drifting-logistic.js';
import { logisticData, type SyntheticData } from '../helpers/synthetic-data.js';

const LEARNERS = ['adf-logit', 'vb-logit-online'] as const;
type Learner = (typeof LEARNERS)[number];

/** Mean −ln p(y) of records [from, to) predicted before each is learnt, one record at a time. */
function prequentialLogLoss(model: OnlineModel, data: SyntheticData, from: number): number {
  let loss = 0;
  for (let r = 0; r < data.n; r++) {
    const p = model.predict(data.x, r * data.d).mean;
    if (r >= from) loss -= Math.log(data.y[r] === 1 ? p : 1 - p);
    model.update({ x: data.x.subarray(r * data.d, (r + 1) * data.d), y: data.y.subarray(r, r + 1), n: 1, d: data.d });
  }
  return loss / (data.n - from);
}

/** The same mean log-loss with the generating weights of each record. */
function trueLogLoss(data: SyntheticData, weightsOf: (r: number) => Float64Array, from: number): number {
  let loss = 0;
  for (let r = from; r < data.n; r++) {
    const w = weightsOf(r);
    let score = 0;
    for (let j = 0; j < data.d; j++) score += w[j] * data.x[r * data.d + j];
    const p = 1 / (1 + Math.exp(-score));
    loss -= Math.log(data.y[r] === 1 ? p : 1 - p);
  }
  return loss / (data.n - from);
}

function feed(model: OnlineModel, data: SyntheticData, from: number, to: number, size: number): void {
  for (let start = from; start < to; start += size) {
    const m = Math.min(size, to - start);
    model.update({ x: data.x.subarray(start * data.d, (start + m) * data.d), y: data.y.subarray(start, start + m), n: m, d: data.d });
  }
}

const leaderOf = (snapshot: ModelSnapshot): number => (snapshot.header.forgetting as { leader: number }).leader;

describe('adaptive forgetting (adf-logit, vb-logit-online defaults)', () => {
  const d = 5;
  const half = 3000;
  const { data, weights } = drifting(half, d, 101, 102);

  for (const learner of LEARNERS) {
    it(`${learner}: with its defaults it follows weights that change half-way (second-half log-loss near the true weights', far below no forgetting)`, () => {
      const truth = trueLogLoss(data, (r) => weights[r < half ? 0 : 1], half);
      const adaptive = prequentialLogLoss(createModel(learner, d), data, half);
      const none = prequentialLogLoss(createModel(learner, d, { forgetting: 'none' }), data, half);
      expect(adaptive).toBeLessThan(1.2 * truth);
      expect(none).toBeGreaterThan(1.3 * truth);
      expect(adaptive).toBeLessThan(0.85 * none);
    });

    it(`${learner}: on a stationary stream the default stays within 1% of no forgetting (while the factor 1 leads, it is that model bit for bit)`, () => {
      const stationary = logisticData(6000, d, 103);
      const model = createModel(learner, d);
      const plain = createModel(learner, d, { forgetting: 'none' });
      const adaptive = prequentialLogLoss(model, stationary, 0);
      const none = prequentialLogLoss(plain, stationary, 0);
      expect(adaptive).toBeLessThan(1.01 * none);
      expect(leaderOf(model.snapshot())).toBe(0);
      const { forgetting: _, ...header } = model.snapshot().header;
      const arrays = Object.fromEntries(Object.entries(model.snapshot().arrays).filter(([name]) => !name.startsWith('forget')));
      expectSameState({ ...model.snapshot(), header: { ...header, forgetting: null }, arrays }, plain.snapshot());
    });

    it.runIf(learner === 'adf-logit')(`${learner}: on a stationary stream the challengers sleep (the snapshot holds the leading posterior alone, about the size of forgetting 'none'), and a change of weights wakes them`, () => {
      const stationary = logisticData(6000, d, 103);
      const model = createModel(learner, d);
      const plain = createModel(learner, d, { forgetting: 'none' });
      feed(model, stationary, 0, 6000, 1);
      feed(plain, stationary, 0, 6000, 1);
      const size = (snapshot: ModelSnapshot): number => Object.values(snapshot.arrays).reduce((total, array) => total + array.length, 0);
      expect(size(model.snapshot())).toBeLessThan(1.05 * size(plain.snapshot()));
      const drifted = createModel(learner, d);
      feed(drifted, data, 0, half + 300, 1);
      expect(Object.keys(drifted.snapshot().arrays).some((name) => name.startsWith('forget0.'))).toBe(true);
    });

    it(`${learner}: snapshot → restore is bit-exact with the adaptive state (after a change of leader) and goes on identically`, () => {
      const model = createModel(learner, d);
      feed(model, data, 0, half + 700, 1);
      const snapshot = model.snapshot();
      expect(leaderOf(snapshot)).not.toBe(0);
      const family = learner === 'adf-logit' ? adfLogitFamily : vbLogitOnlineFamily;
      const restored = family.restore(snapshot);
      expectSameState(restored.snapshot(), snapshot);
      feed(model, data, half + 700, 2 * half, 1);
      feed(restored, data, half + 700, 2 * half, 1);
      expectSameState(restored.snapshot(), model.snapshot());
    });

    it(`${learner}: any batching gives the same state (forgetting steps are counted in records)`, () => {
      const single = createModel(learner, d);
      const batched = createModel(learner, d);
      feed(single, data, 0, 2 * half, 1);
      feed(batched, data, 0, 2 * half, 137);
      expectSameState(batched.snapshot(), single.snapshot());
    });

    it(`${learner}: forget(γ) forgets every candidate, and 'none' or a single factor 1 turns it off`, () => {
      const model = createModel(learner, d);
      feed(model, data, 0, 500, 50);
      model.forget(0.5);
      expect(model.snapshot().header.forgetting).not.toBeNull();
      expect(createModel(learner, d, { forgetting: 'none' }).snapshot().header.forgetting).toBeNull();
      expect(createModel(learner, d, { forgetFactors: [1] }).snapshot().header.forgetting).toBeNull();
      expect(() => createModel(learner, d, { forgetFactors: [1, 1.5] })).toThrow(/forgetFactors\[1\]|in \(0, 1\]/);
      expect(model.emptyLike().snapshot().header.forgetting).toMatchObject({ factors: [1, 0.99, 0.95, 0.8], every: 100, leader: 0 });
    });

    it(`${learner}: a batch that fails part-way, also after changes of leader, leaves every candidate bit for bit as it was`, () => {
      const options = { forgetEvery: 7 };
      const model = createModel(learner, d, options, { maxAbsInput: Number.MAX_VALUE }); // 1e200 reaches the update (not refused as input)
      const reference = createModel(learner, d, options);
      let leaders = 0;
      for (let start = 0; start < 2 * half; start += 250) {
        const size = 250;
        feed(model, data, start, start + size, 50);
        feed(reference, data, start, start + size, 50);
        const poisoned = { x: data.x.slice((start + size - 40) * d, (start + size) * d), y: data.y.slice(start + size - 40, start + size), n: 40, d };
        poisoned.x[33 * d + 1] = 1e200;
        const before = model.snapshot();
        expect(() => model.update(poisoned)).toThrow(NumericalError);
        expectSameState(model.snapshot(), before);
        if (leaderOf(before) !== 0) leaders += 1;
      }
      expect(leaders).toBeGreaterThan(0);
      expectSameState(model.snapshot(), reference.snapshot());
    });

    it(`${learner}: never a non-finite posterior or prediction on finite input`, () => {
      fc.assert(fc.property(
        fc.array(fc.tuple(fc.array(fc.double({ min: -50, max: 50, noNaN: true }), { minLength: 3, maxLength: 3 }), fc.boolean()), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 60 }),
        (rows, every) => {
          const model = createModel(learner, 3, { forgetEvery: every });
          const x = Float64Array.from(rows.flatMap(([features]) => features));
          const y = Float64Array.from(rows, ([, label]) => (label ? 1 : 0));
          model.update({ x, y, n: rows.length, d: 3 });
          const p = model.predict(Float64Array.of(1, -2, 3)).mean;
          expect(Number.isFinite(p) && p >= 0 && p <= 1).toBe(true);
          for (const array of Object.values(model.snapshot().arrays)) expect(array.every(Number.isFinite)).toBe(true);
        },
      ), { numRuns: 60 });
    });
  }

  it('adf-logit: a record whose projection variance underflows (a feature of 5e-155, s² subnormal) is learned with finite evidence (fast-check counterexample)', () => {
    const model = createModel('adf-logit', 3, { forgetEvery: 1 });
    model.update({ x: Float64Array.of(0, 0, 5.273843307431502e-155, 0, 0, 0), y: Float64Array.of(0, 0), n: 2, d: 3 });
    const p = model.predict(Float64Array.of(1, -2, 3)).mean;
    expect(p).toBeCloseTo(0.5, 6);
    for (const array of Object.values(model.snapshot().arrays)) expect(array.every(Number.isFinite)).toBe(true);
  });

  it('vb-logit-online: merge combines the leading posteriors and restarts every candidate from the result', () => {
    const a = createModel('vb-logit-online', d);
    const b = createModel('vb-logit-online', d);
    feed(a, data, 0, 400, 400);
    feed(b, data, 400, 800, 400);
    const plain = createModel('vb-logit-online', d, { forgetting: 'none' });
    const other = createModel('vb-logit-online', d, { forgetting: 'none' });
    feed(plain, data, 0, 400, 400);
    feed(other, data, 400, 800, 400);
    a.merge(b);
    plain.merge(other);
    expect(Array.from(a.posterior.w)).toEqual(Array.from(plain.posterior.w));
    const bank = a.snapshot();
    expect(Array.from(bank.arrays.forgetEvidence)).toEqual([0, 0, 0, 0]);
    for (let slot = 0; slot < 3; slot++) expect(Array.from(bank.arrays[`forget${slot}.w`])).toEqual(Array.from(a.posterior.w));
  });

  it('adf-logit: challengers that wake hold their own posterior only, not a copy of the bank (which nested one level deeper at every wake)', () => {
    const model = createModel('adf-logit', d);
    feed(model, data, 0, half + 700, 1);
    const { forgetting } = (model as unknown as { state: { forgetting: { awake: boolean; counters: { wakes: number }; members: { forgetting?: unknown }[] } } }).state;
    expect(forgetting.awake).toBe(true);
    expect(forgetting.counters.wakes).toBeGreaterThan(0);
    for (const member of forgetting.members) expect(member.forgetting).toBeUndefined();
  });

  for (const learner of LEARNERS) {
    it(`${learner}: a snapshot of before sleeping challengers (every candidate saved) restores with them awake, each candidate's memory its records, and goes on learning`, () => {
      const model = createModel(learner, d);
      feed(model, data, 0, half + 700, 1);
      const current = model.snapshot();
      expect((current.header.forgetting as { awake: boolean }).awake).toBe(true);
      const { awake: _a, wakes: _w, surprise: _s, calm: _c, ...bank } = current.header.forgetting as { [key: string]: never };
      const { forgetMemory: _m, ...arrays } = current.arrays;
      const family = learner === 'adf-logit' ? adfLogitFamily : vbLogitOnlineFamily;
      const restored = family.restore({ ...current, version: current.version - 1, header: { ...current.header, forgetting: bank }, arrays });
      const expected = { ...current.header.forgetting as object, wakes: 0, surprise: 0, calm: 0 };
      expect(restored.snapshot().header.forgetting).toEqual(expected);
      for (const name of Object.keys(arrays)) expect(Array.from(restored.snapshot().arrays[name])).toEqual(Array.from(current.arrays[name]));
      expect(Array.from(restored.snapshot().arrays.forgetMemory)).toEqual([0, 0, 0, 0].map(() => half + 700));
      feed(restored, data, half + 700, 2 * half, 1);
      expect(restored.recordsSeen).toBe(2 * half);
    });
  }

  it('a snapshot of before adaptive forgetting restores without it and goes on as it would have', () => {
    const plain = createModel('vb-logit-online', d, { forgetting: 'none' });
    feed(plain, data, 0, 300, 100);
    const current = plain.snapshot();
    const { forgetting: _, ...header } = current.header;
    const restored = vbLogitOnlineFamily.restore({ ...current, version: 1, header });
    feed(plain, data, 300, 900, 100);
    feed(restored, data, 300, 900, 100);
    expectSameState(restored.snapshot(), plain.snapshot());
  });
});
