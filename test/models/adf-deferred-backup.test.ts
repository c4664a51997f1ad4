import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/core/batch.js';
import type { FamilyDefinition, FamilyState } from '../../src/core/family-definition.js';
import { ModelShell } from '../../src/core/model-shell.js';
import { NumericalError } from '../../src/core/numerical-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import type { ForgettingBank } from '../../src/forgetting/forgetting-bank.js';
import type { AdfState } from '../../src/models/adf/state.js';
import { createModel } from '../../src/registry.js';
import { expectSameState } from '../helpers/same-state.js';
import { driftingLogistic } from '../helpers/drifting-logistic.js';
import { countData, type SyntheticData } from '../helpers/synthetic-data.js';

const row = (data: SyntheticData, r: number): Batch => ({ x: data.x.slice(r * data.d, (r + 1) * data.d), y: data.y.slice(r, r + 1), n: 1, d: data.d });

describe('adf one-record updates plan before they write (the shell keeps no backup unless the record needs it)', () => {
  const d = 3;
  const streams = { 'adf-logit': driftingLogistic(300, d, 31, 32).data, 'adf-probit': driftingLogistic(300, d, 33, 34).data, 'adf-poisson': countData(600, d, 35, Float64Array.from([0.5, -0.3, 0.2])) };

  it('property: records one at a time, some poisoned, give the state of the clean records in batches (which back up first), and a refused record leaves the model bit for bit', () => {
    const poison = fc.record({ at: fc.nat({ max: 599 }), kind: fc.constantFrom('feature', 'weight'), magnitude: fc.constantFrom(1e200, 1e160) });
    let refusals = 0;
    fc.assert(fc.property(fc.constantFrom('adf-logit', 'adf-probit', 'adf-poisson'), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 3, max: 60 }), fc.array(poison, { maxLength: 8 }), (family, window, revisits, every, poisons) => {
      const data = streams[family];
      const options = family === 'adf-logit' ? { window, revisits, forgetEvery: every } : { window, revisits };
      const model = createModel(family, d, options, { maxAbsInput: Number.MAX_VALUE });
      const reference = createModel(family, d, options, { maxAbsInput: Number.MAX_VALUE });
      const pending: number[] = [];
      const flush = () => {
        if (pending.length === 0) return;
        const x = new Float64Array(pending.length * d);
        pending.forEach((r, k) => x.set(data.x.subarray(r * d, (r + 1) * d), k * d));
        reference.update({ x, y: Float64Array.from(pending, (r) => data.y[r]), n: pending.length, d });
        pending.length = 0;
      };
      for (let r = 0; r < data.n; r++) {
        for (const { kind, magnitude } of poisons.filter((p) => p.at === r)) {
          const bad = row(data, r);
          const poisoned = kind === 'feature' ? { ...bad, x: bad.x.map((v, j) => (j === 1 ? magnitude : v)) } : { ...bad, weights: Float64Array.of(magnitude) };
          const before = model.snapshot();
          let refused = false;
          try {
            model.update(poisoned);
          } catch (error) {
            expect(error).toBeInstanceOf(NumericalError);
            refused = true;
          }
          if (!refused) return true; // a poison the model could learn: the streams part from here
          refusals += 1;
          expectSameState(model.snapshot(), before);
        }
        model.update(row(data, r));
        pending.push(r);
        if (pending.length === 7) flush();
      }
      flush();
      expectSameState(model.snapshot(), reference.snapshot());
      return true;
    }), { numRuns: 40 });
    expect(refusals).toBeGreaterThan(20);
  });

  it('test-then-train with adf-logit defaults on a drifting stream (challengers asleep, waking, leading) matches the same records in one batch, bit for bit', () => {
    const { data } = driftingLogistic(3000, 5, 101, 102);
    const streamed = createModel('adf-logit', 5);
    const batched = createModel('adf-logit', 5);
    for (let r = 0; r < data.n; r++) {
      streamed.predict(data.x, r * 5);
      streamed.update(row(data, r));
    }
    batched.update({ x: data.x, y: data.y, n: data.n, d: 5 });
    expect((streamed.snapshot().header.forgetting as { wakes: number }).wakes).toBeGreaterThan(0);
    expectSameState(streamed.snapshot(), batched.snapshot());
  });
});

describe('ForgettingBank.quietFor: whether a record only counts (what lets a one-record step skip the backup)', () => {
  const bankOf = (model: OnlineModel) => (model as unknown as { state: AdfState }).state.forgetting as ForgettingBank<AdfState>;

  it('asleep: a record as surprising as the leader expects is quiet; one that would wake the challengers, or of −∞ evidence, is not, and step then wakes them', () => {
    const model = createModel('adf-logit', 2);
    const bank = bankOf(model);
    expect(bank.awake).toBe(false);
    expect(bank.quietFor(Math.log(0.7))).toBe(true);
    expect(bank.quietFor(-Infinity)).toBe(false);
    expect(bank.quietFor(-30)).toBe(false);
    const state = (model as unknown as { state: AdfState }).state;
    bank.step(state, 1, () => -30);
    expect(bank.awake).toBe(true);
    expect(bank.quietFor(Math.log(0.7))).toBe(false);
  });
});

describe('ModelShell with a deferredBackup family', () => {
  interface Counter extends FamilyState { readonly values: Float64Array }
  type Mode = 'backup, write, throw' | 'throw before writing' | 'write non-finite without backup';
  let mode: Mode = 'throw before writing';
  const definition = {
    id: 'counter', task: 'regression', weights: false, deferredBackup: true,
    recordsSeen: (state: Counter) => state.values[0],
    isFinite: (state: Counter) => state.values.every(Number.isFinite),
    codec: { version: 1, encode: (state: Counter) => ({ header: {}, arrays: { values: state.values.slice() } }) },
    step(state: Counter, batch: Batch, _workspace: unknown, backup?: () => void) {
      if (mode === 'throw before writing') throw new NumericalError('refused before writing');
      if (mode === 'backup, write, throw') {
        backup!();
        state.values[0] += batch.n;
        throw new NumericalError('refused after writing');
      }
      state.values[1] = Infinity;
      return { records: batch.n };
    },
  } as unknown as FamilyDefinition<object, Counter>;
  const batch: Batch = { x: Float64Array.of(1), y: Float64Array.of(2), n: 1, d: 1 };

  it.each(['backup, write, throw', 'throw before writing'] as const)('%s: the state is as it was', (which) => {
    mode = which;
    const model: OnlineModel = new ModelShell(definition, { dim: 1, values: Float64Array.of(5, 1) });
    const before = model.snapshot();
    expect(() => model.update(batch)).toThrow(NumericalError);
    expectSameState(model.snapshot(), before);
  });

  it('a step that skipped its backup and left a non-finite state is a NumericalError that does not claim the model unchanged', () => {
    mode = 'write non-finite without backup';
    const model = new ModelShell(definition, { dim: 1, values: Float64Array.of(5, 1) });
    expect(() => model.update(batch)).toThrow(/without keeping the state it would restore/);
  });
});
