import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/core/batch.js';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { InputError } from '../../src/core/input-error.js';
import { ModelShell } from '../../src/core/model-shell.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { ShapeError } from '../../src/core/shape-error.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { families, getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { expectSameState } from '../helpers/same-state.js';
import { taskRecords } from '../helpers/task-data.js';
import { thrownBy } from '../helpers/thrown-by.js';
import { CONFORMANCE_OPTIONS, skipReason, type ConformanceCheck } from './conformance-settings.js';

/**
 * One suite over every registered family (River's `estimator_checks`, GPyTorch's test base
 * classes): what the model contract promises, checked the same way for all. A family skips a
 * check only with a reason (`conformance-settings.ts`).
 */
const DIM = 3;

function batchOf(id: string, n: number, seed: number, firstRow = 1): Batch {
  const records = taskRecords(getFamily(id).task, n, DIM, seed);
  const x = new Float64Array(n * DIM);
  records.forEach((r, i) => x.set(r.x, i * DIM));
  return { x, y: Float64Array.from(records, (r) => r.y), n, d: DIM, firstRow };
}

function make(id: string): OnlineModel {
  return getFamily(id).create(DIM, CONFORMANCE_OPTIONS[id]);
}

function trained(id: string, batches = 2): OnlineModel {
  const model = make(id);
  for (let b = 0; b < batches; b++) model.update(batchOf(id, 24, 100 + b));
  return model;
}

function stateOf(model: OnlineModel): ReturnType<OnlineModel['snapshot']> {
  return model.snapshot();
}

function finitePosterior(model: OnlineModel): boolean {
  return model.posteriorMean().every(Number.isFinite) && Number.isFinite(model.summary().meanNorm);
}

const ids = [...families.keys()];

describe.each(ids)('%s conforms to the model contract', (id) => {
  const check = (name: ConformanceCheck, title: string, body: () => void | Promise<void>, timeout?: number): void => {
    const reason = skipReason(id, name);
    if (reason === undefined) it(title, body, timeout);
    else it.skip(`${title} — skipped: ${reason}`, body);
  };

  check('options', 'refuses an unknown option key with a did-you-mean, and a bad dimension', () => {
    const family = getFamily(id);
    const known = Object.keys(family.options);
    expect(known.length).toBeGreaterThan(0);
    const misspelt = `${known[0].slice(0, -1)}${known[0].endsWith('x') ? 'y' : 'x'}`;
    expect(() => family.create(DIM, { [misspelt]: 1 })).toThrow(ConfigError);
    expect(() => family.create(DIM, { [misspelt]: 1 })).toThrow(new RegExp(`did you mean "${known[0]}"`));
    expect(() => family.create(DIM, { certainlyNotAnOption: true })).toThrow(/unknown .* option/);
    expect(() => family.create(0)).toThrow(ConfigError);
    expect(() => family.create(2.5)).toThrow(ConfigError);
  });

  check('no-mutation', 'update does not change its batch', () => {
    const model = make(id);
    const batch = batchOf(id, 16, 1);
    const x = batch.x.slice();
    const y = batch.y.slice();
    model.update(batch);
    expect(batch.x).toEqual(x);
    expect(batch.y).toEqual(y);
  });

  check('bad-rows', 'a batch with bad rows is refused whole, every bad row listed, the model bit-identical', () => {
    const model = trained(id);
    const before = stateOf(model);
    const batch = batchOf(id, 10, 7, 41);
    batch.x[2 * DIM + 1] = Number.NaN;
    batch.y[5] = getFamily(id).task === 'regression' ? Infinity : 0.5;
    batch.x[8 * DIM] = -Infinity;
    const thrown = thrownBy(() => model.update(batch));
    expect(thrown).toBeInstanceOf(InputError);
    const problems = (thrown as InputError).problems;
    expect(problems.map((p) => p.location.row)).toEqual([43, 46, 49]);
    expect(problems[0].location.column).toBe(2);
    expect(problems[1].location.column).toBe('y');
    expectSameState(stateOf(model), before);
    expect(() => model.update({ ...batchOf(id, 2, 1), d: DIM + 1 })).toThrow(ShapeError);
    expectSameState(stateOf(model), before);
  });

  check('predict', 'predict is pure and checks its input like update', () => {
    const model = trained(id);
    const before = stateOf(model);
    const x = Float64Array.of(1, 0.3, -0.7);
    const first = model.predict(x);
    const second = model.predict(x);
    expect(Number.isFinite(first.mean) && Number.isFinite(first.variance)).toBe(true);
    expect(second.mean).toBe(first.mean);
    expect(second.variance).toBe(first.variance);
    expectSameState(stateOf(model), before);
    expect(model.predict(Float64Array.of(9, 9, 1, 0.3, -0.7), 2).mean).toBe(first.mean);
    expect(() => model.predict(Float64Array.of(1, 2))).toThrow(ShapeError);
    expect(() => model.predict(Float64Array.of(1, Number.NaN, 2))).toThrow(InputError);
    expect(() => model.predict(Float64Array.of(1, 1e200, 2))).toThrow(/feature is out of range: .*\(column 2, value 1e\+200\)/);
    expect(() => model.predict(x, 1)).toThrow(ShapeError);
  });

  check('score-into', 'scoreInto gives every record predict\'s mean, variance and −log p(y) bit for bit (NaN where predict refuses) and the predictives\' kind (fast-check over rows)', () => {
    const model = trained(id);
    const labels = batchOf(id, 40, 9).y;
    const bits = (values: readonly number[]): string => Buffer.from(Float64Array.from(values).buffer).toString('hex');
    const row = fc.tuple(fc.array(fc.double({ min: -6, max: 6, noNaN: true }), { minLength: DIM, maxLength: DIM }), fc.integer({ min: 0, max: 39 }), fc.constantFrom('none', 'none', 'none', 'nan', 'huge', 'label'));
    fc.assert(fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
      const n = rows.length;
      const x = new Float64Array(n * DIM);
      const y = new Float64Array(n);
      rows.forEach(([features, label, spoil], i) => {
        x.set(features, i * DIM);
        y[i] = spoil === 'label' ? 0.5 : labels[label];
        if (spoil === 'nan') x[i * DIM + 1] = Number.NaN;
        if (spoil === 'huge') x[i * DIM] = 1e200;
      });
      const [mean, variance, logLoss] = [0, 1, 2].map(() => new Float64Array(n).fill(7));
      const kind = model.scoreInto!(x, y, n, mean, variance, logLoss);
      let expectedKind: string | undefined;
      for (let i = 0; i < n; i++) {
        let expected = [Number.NaN, Number.NaN, Number.NaN];
        try {
          const predictive = model.predict(x, i * DIM);
          expectedKind = predictive.kind;
          expected = [predictive.mean, predictive.variance, -predictive.logProb(y[i])];
        } catch (error) {
          expect(error).toBeInstanceOf(VbstreamError);
        }
        expect(bits([mean[i], variance[i], logLoss[i]])).toBe(bits(expected));
      }
      expect(kind).toBe(expectedKind);
    }), { numRuns: 40 });
  });

  check('snapshot', 'snapshot → bytes → restore is bit-exact and continues identically', () => {
    const model = trained(id);
    const bytes = encodeSnapshot(model.snapshot());
    const restored = getFamily(id).restore(decodeSnapshot(bytes).snapshot);
    expectSameState(restored.snapshot(), model.snapshot());
    expect(restored.recordsSeen).toBe(model.recordsSeen);
    const x = Float64Array.of(0.5, -1, 2);
    expect(restored.predict(x).mean).toBe(model.predict(x).mean);
    const next = batchOf(id, 12, 55);
    model.update(next);
    restored.update(next);
    expectSameState(restored.snapshot(), model.snapshot());
  });

  check('evidence-bound', 'evidenceBound is offered exactly where the family says so; where it is, it is finite, pure and restored bit for bit', () => {
    const model = trained(id);
    expect(model.evidenceBound !== undefined).toBe(getFamily(id).evidenceBound);
    if (model.evidenceBound === undefined) return;
    const before = model.snapshot();
    const bound = model.evidenceBound();
    expect(Number.isFinite(bound)).toBe(true);
    expect(model.evidenceBound()).toBe(bound);
    expectSameState(model.snapshot(), before);
    expect(getFamily(id).restore(decodeSnapshot(encodeSnapshot(before)).snapshot).evidenceBound!()).toBe(bound);
  });

  check('restore-checks', 'restore refuses another family, a newer layout and a bad dimension', () => {
    const snapshot = trained(id).snapshot();
    const other = ids.find((o) => o !== id) as string;
    expect(() => getFamily(other).restore(snapshot)).toThrow(/family/);
    expect(() => getFamily(id).restore({ ...snapshot, version: snapshot.version + 1 })).toThrow(/newer/);
    expect(() => getFamily(id).restore({ ...snapshot, dim: 0 })).toThrow(/dimension/);
  });

  check('restore-finite', 'restore refuses a NaN or ±Infinity in any array with a SnapshotError naming the family, array and index; NaN only where a fresh model keeps a not-yet-computed marker; valid snapshots restore bit for bit', () => {
    const empty = make(id).snapshot();
    const oneByOne = make(id);
    const rows = batchOf(id, 12, 5);
    for (let i = 0; i < rows.n; i++) oneByOne.update({ x: rows.x.subarray(i * DIM, (i + 1) * DIM), y: rows.y.subarray(i, i + 1), n: 1, d: DIM });
    const snapshots = [empty, trained(id).snapshot(), oneByOne.snapshot()];
    for (const snapshot of snapshots) expectSameState(getFamily(id).restore(decodeSnapshot(encodeSnapshot(snapshot)).snapshot).snapshot(), snapshot);
    const markers = new Set(Object.entries(empty.arrays).flatMap(([name, array]) => Array.from(array).flatMap((v, i) => (Number.isNaN(v) ? [`${name}[${i}]`] : []))));
    const positions = snapshots.flatMap((snapshot, s) => Object.entries(snapshot.arrays).flatMap(([name, array]) => Array.from({ length: array.length }, (_, i) => ({ s, name, i }))));
    fc.assert(fc.property(fc.constantFrom(...positions), fc.constantFrom(Number.NaN, Infinity, -Infinity), ({ s, name, i }, value) => {
      const snapshot = snapshots[s];
      const array = snapshot.arrays[name].slice();
      array[i] = value;
      const bad = { ...snapshot, arrays: { ...snapshot.arrays, [name]: array } };
      if (Number.isNaN(value) && markers.has(`${name}[${i}]`)) {
        expect(() => getFamily(id).restore(bad)).not.toThrow();
        return;
      }
      let thrown: unknown;
      try {
        getFamily(id).restore(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${name}[${i}] = ${value}`).toBeInstanceOf(SnapshotError);
      expect((thrown as SnapshotError).message).toContain(id);
      expect((thrown as SnapshotError).message).toContain(`"${name}"`);
      expect((thrown as SnapshotError).message).toContain(`index ${i}`);
    }), { numRuns: 60 });
  });

  check('empty-like', 'emptyLike has the same settings and no data; clone is independent', () => {
    const model = trained(id) as ModelShell;
    const empty = model.emptyLike();
    expect(empty.recordsSeen).toBe(0);
    expectSameState(empty.snapshot(), make(id).snapshot());
    const copy = model.clone();
    expectSameState(copy.snapshot(), model.snapshot());
    copy.update(batchOf(id, 8, 9));
    expect(copy.recordsSeen).toBe(model.recordsSeen + 8);
  });

  check('forget-identity', 'forget(1) is the identity; a factor outside (0, 1] is refused, the model untouched', () => {
    const model = trained(id);
    const before = stateOf(model);
    model.forget!(1);
    expectSameState(stateOf(model), before);
    expect(() => model.forget!(0)).toThrow(InputError);
    expect(() => model.forget!(1.5)).toThrow(InputError);
    expectSameState(stateOf(model), before);
  });

  check('merge', 'merge(A, B) equals one model fed A then B, after every batch', () => {
    const a = make(id);
    const b = make(id);
    const both = make(id);
    for (let k = 0; k < 3; k++) {
      const left = batchOf(id, 15, 200 + k);
      const right = batchOf(id, 15, 300 + k);
      a.update(left);
      b.update(right);
      both.update(left);
      both.update(right);
      const merged = (a as ModelShell).clone();
      merged.merge!(b);
      const x = Float64Array.of(0.2, 1, -0.4);
      expect(merged.recordsSeen).toBe(both.recordsSeen);
      // Both read through fresh copies: a family may warm-start its fit from its earlier reads
      // (vb-linear), which agrees with the fit from scratch only to the fit's tolerance.
      const fresh = (both as ModelShell).clone();
      expect(merged.predict(x).mean).toBeCloseTo(fresh.predict(x).mean, 9);
      both.predict(x);
      const got = merged.posteriorMean();
      const want = fresh.posteriorMean();
      for (let j = 0; j < want.length; j++) expect(Math.abs(got[j] - want[j])).toBeLessThan(1e-10 * Math.max(1, Math.abs(want[j])));
    }
    expect(() => a.merge!(getFamily(ids.find((o) => o !== id) as string).create(DIM))).toThrow(VbstreamError);
  });

  check('seeded-draws', 'the same seed gives the same posterior draws', () => {
    const model = trained(id);
    const one = model.sample(Rng.fromSeed(11));
    const two = model.sample(Rng.fromSeed(11));
    expect(Array.from(two)).toEqual(Array.from(one));
    expect(one.every(Number.isFinite)).toBe(true);
  });

  check('batching', 'where batching is invariant, a stream cut anywhere gives the one-batch state bit for bit', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }), (cuts) => {
      const all = batchOf(id, 40, 77);
      const one = make(id);
      one.update(all);
      const cut = make(id);
      let start = 0;
      for (const size of [...cuts, 40]) {
        const end = Math.min(40, start + size);
        if (end > start) cut.update({ x: all.x.subarray(start * DIM, end * DIM), y: all.y.subarray(start, end), n: end - start, d: DIM });
        start = end;
      }
      expectSameState(cut.snapshot(), one.snapshot());
    }), { numRuns: 15 });
  });

  check('huge-values', 'finite inputs up to maxAbsInput give a finite posterior or a typed error with the model bit-identical; larger ones (up to 1e308) are refused as input before any update, update and predict alike', () => {
    const maxAbsInput = (make(id) as ModelShell).maxAbsInput;
    expect(maxAbsInput, 'the documented default').toBe(1e12);
    fc.assert(fc.property(
      fc.double({ min: 1, max: 1e308, noNaN: true }),
      fc.integer({ min: 0, max: DIM }),
      fc.boolean(),
      (magnitude, column, negative) => {
        const model = trained(id, 1);
        const before = stateOf(model);
        const batch = batchOf(id, 6, 13);
        const value = negative ? -magnitude : magnitude;
        if (column === DIM) {
          if (getFamily(id).task !== 'regression') return;
          batch.y[3] = value;
        } else {
          batch.x[3 * DIM + column] = value;
        }
        if (magnitude > maxAbsInput) {
          const thrown = thrownBy(() => model.update(batch));
          expect(thrown).toBeInstanceOf(InputError);
          expect((thrown as InputError).problems.map((p) => [p.location.row, p.location.column, p.reason])).toEqual([[4, column === DIM ? 'y' : column + 1, expect.stringMatching(/is out of range/)]]);
          expectSameState(stateOf(model), before);
          if (column < DIM) expect(() => model.predict(batch.x, 3 * DIM)).toThrow(/feature is out of range/);
          return;
        }
        try {
          model.update(batch);
        } catch (error) {
          expect(error).toBeInstanceOf(VbstreamError);
          expectSameState(stateOf(model), before);
          return;
        }
        expect(finitePosterior(model)).toBe(true);
        const p = model.predict(Float64Array.of(0.3, -0.2, 1));
        expect(Number.isFinite(p.mean)).toBe(true);
      },
    ), { numRuns: 25 });
  });
});
