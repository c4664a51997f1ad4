import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import { makeBatch } from '../../src/core/make-batch.js';
import { createModel, getFamily } from '../../src/registry.js';
import { expectSameState } from '../helpers/same-state.js';
import { thrownBy } from '../helpers/thrown-by.js';

/** The refusals of `update`, as [row, column, reason]. */
function refusals(run: () => unknown): [unknown, unknown, string][] {
  const error = thrownBy(run);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems.map((p) => [p.location.row, p.location.column, p.reason]);
}

describe('out-of-range magnitudes (issue 26, item 6): refused by the model shell before any update', () => {
  it('a feature, a regression label or a weight beyond maxAbsInput (default 1e12) is an InputError naming row, column and value; the model is bit-identical', () => {
    const model = createModel('vb-linear', 2);
    model.update(makeBatch([[1, 0.5], [1, -1], [1, 2]], [0.3, -0.2, 1.1]));
    const before = model.snapshot();
    const batch = makeBatch([[1, 0.1], [1, 1e200], [1, 0.3], [1, 0.4], [1, -1e13], [1, 1e12]], [0.1, 0.2, 1e200, 0.4, 0.5, 0.6], { weights: [1, 1, 1, 1e300, 1, 1], firstRow: 11 });
    expect(refusals(() => model.update(batch))).toEqual([
      [12, 2, 'feature is out of range: |value| > maxAbsInput (1e+12)'],
      [13, 'y', 'label is out of range: |value| > maxAbsInput (1e+12)'],
      [14, 'weight', 'weight is out of range: |value| > maxAbsInput (1e+12)'],
      [15, 2, 'feature is out of range: |value| > maxAbsInput (1e+12)'],
    ]);
    expect(() => model.update(batch)).toThrow(/feature is out of range: \|value\| > maxAbsInput \(1e\+12\) \(and 3 more bad rows\) \(row 12, column 2, value 1e\+200\)/);
    expectSameState(model.snapshot(), before);
    expect(model.maxAbsInput).toBe(1e12);
  });

  it('a family that cannot learn 1e200 finitely (vb-logit-online) refuses it as input, not as a numerical failure after the update', () => {
    const model = createModel('vb-logit-online', 3);
    model.update(makeBatch([[1, 0.5, 0.2], [1, -1, 0.3]], [1, 0]));
    const before = model.snapshot();
    expect(refusals(() => model.update(makeBatch([[1, 0.2, 0.1], [1, 1e200, 0.2]], [1, 1])))).toEqual([[2, 2, 'feature is out of range: |value| > maxAbsInput (1e+12)']]);
    expectSameState(model.snapshot(), before);
  });

  it('predict refuses an out-of-range feature with an InputError naming the column and value', () => {
    const model = createModel('vb-logit-online', 3);
    expect(() => model.predict(Float64Array.of(1, 1e200, 0))).toThrow(InputError);
    expect(() => model.predict(Float64Array.of(1, 1e200, 0))).toThrow(/feature is out of range.*\(column 2, value 1e\+200\)/);
    expect(() => model.predict(Float64Array.of(7, 1, -2e12, 0), 1)).toThrow(/column 2, value -2000000000000/);
    expect(Number.isFinite(model.predict(Float64Array.of(1, 1e3, 0)).mean)).toBe(true);
  });

  it('the bound is configurable at creation and restore, kept by emptyLike and clone, and checked', () => {
    const family = getFamily('vb-linear');
    const model = family.create(2, { maxIter: 50 }, { maxAbsInput: 100 });
    expect(model.maxAbsInput).toBe(100);
    model.update(makeBatch([[1, 100], [1, -100]], [100, -100]));
    expect(refusals(() => model.update(makeBatch([[1, 100.5]], [1])))).toEqual([[1, 2, 'feature is out of range: |value| > maxAbsInput (100)']]);
    expect(family.restore(model.snapshot()).maxAbsInput, 'the bound is a setting of the model, not of its posterior: a restore without it has the default').toBe(1e12);
    const restored = family.restore(model.snapshot(), { maxAbsInput: 100 });
    expect(() => restored.predict(Float64Array.of(1, 101))).toThrow(/maxAbsInput \(100\)/);
    expect(model.emptyLike().maxAbsInput).toBe(100);
    expect(model.clone().maxAbsInput).toBe(100);
    const wide = createModel('vb-linear', 2, undefined, { maxAbsInput: 1e15 });
    wide.update(makeBatch([[1, 1e13], [1, 0.5]], [1, 2]));
    expect(wide.recordsSeen).toBe(2);
    for (const bad of [0.5, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1e6']) {
      expect(() => family.create(2, {}, { maxAbsInput: bad as number })).toThrow(ConfigError);
      expect(() => family.create(2, {}, { maxAbsInput: bad as number })).toThrow(/field maxAbsInput/);
    }
  });

  it('a count label beyond the bound is refused; classification labels keep their own coding check', () => {
    const counts = createModel('adf-poisson', 2, undefined, { maxAbsInput: 1000 });
    expect(refusals(() => counts.update(makeBatch([[1, 0.1], [1, 0.2]], [3, 5000])))).toEqual([[2, 'y', 'label is out of range: |value| > maxAbsInput (1000)']]);
    const binary = createModel('vb-logit-online', 2);
    expect(refusals(() => binary.update(makeBatch([[1, 0.1]], [1e200])))).toEqual([[1, 'y', 'binary label must be 0/1 or -1/1']]);
  });
});
