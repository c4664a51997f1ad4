import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { symmetricEigen } from '../../src/linalg/symmetric-eigen.js';
import { symmetricEigenvalues } from '../../src/linalg/symmetric-eigenvalues.js';
import { conditionNumber } from '../../src/linalg/condition-number.js';
import { Rng } from '../../src/rng/rng.js';

/** A random symmetric n×n matrix with entries of magnitude `scale`, plus `shift`·I. */
function symmetric(rng: Rng, n: number, scale = 1, shift = 0): Float64Array {
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = scale * rng.normal() + (i === j ? shift : 0);
      a[i * n + j] = v;
      a[j * n + i] = v;
    }
  }
  return a;
}

describe('symmetricEigenvalues', () => {
  it('matches the full decomposition (ml-matrix) to 1e-12 of the spectral radius, ascending, and leaves the input alone', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(1e-6, 1, 1e6), (n, seed, scale) => {
      const a = symmetric(Rng.fromSeed(seed), n, scale);
      const copy = Float64Array.from(a);
      const values = symmetricEigenvalues(a, n);
      const reference = symmetricEigen(a, n).values;
      const radius = Math.max(...reference.map(Math.abs));
      for (let i = 0; i < n; i++) expect(Math.abs(values[i] - reference[i])).toBeLessThanOrEqual(1e-12 * radius + Number.MIN_VALUE);
      for (let i = 1; i < n; i++) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1]);
      expect(a).toEqual(copy);
    }), { numRuns: 150 });
  });

  it('is exact on diagonal, block-diagonal and repeated-eigenvalue matrices', () => {
    expect(Array.from(symmetricEigenvalues(Float64Array.of(3, 0, 0, 0, -1, 0, 0, 0, 2), 3))).toEqual([-1, 2, 3]);
    expect(Array.from(symmetricEigenvalues(Float64Array.of(2, 1, 1, 2), 2)).map((v) => Number(v.toFixed(12)))).toEqual([1, 3]);
    const identity = new Float64Array(25);
    for (let i = 0; i < 5; i++) identity[i * 5 + i] = 4;
    expect(Array.from(symmetricEigenvalues(identity, 5))).toEqual([4, 4, 4, 4, 4]);
    expect(Array.from(symmetricEigenvalues(Float64Array.of(7), 1))).toEqual([7]);
    expect(symmetricEigenvalues(new Float64Array(0), 0)).toHaveLength(0);
  });

  it('gives the trace and the sum of squares of the matrix (invariants)', () => {
    const n = 60;
    const a = symmetric(Rng.fromSeed(3), n, 1, 5);
    const values = symmetricEigenvalues(a, n);
    let trace = 0;
    let frobenius = 0;
    for (let i = 0; i < n; i++) trace += a[i * n + i];
    for (const v of a) frobenius += v * v;
    expect(values.reduce((s, v) => s + v, 0)).toBeCloseTo(trace, 9);
    expect(values.reduce((s, v) => s + v * v, 0) / frobenius).toBeCloseTo(1, 12);
  });

  it('feeds conditionNumber: λ_max/λ_min of an SPD matrix, huge when singular, Infinity when indefinite', () => {
    const n = 30;
    const b = symmetric(Rng.fromSeed(9), n);
    const spd = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { let s = i === j ? 0.1 : 0; for (let k = 0; k < n; k++) s += b[i * n + k] * b[j * n + k]; spd[i * n + j] = s; }
    const reference = symmetricEigen(spd, n).values;
    expect(conditionNumber(spd, n)).toBeCloseTo(reference[n - 1] / reference[0], 6);
    expect(conditionNumber(Float64Array.of(1, 1, 1, 1), 2)).toBeGreaterThan(1e15);
    expect(conditionNumber(Float64Array.of(1, 2, 2, 1), 2)).toBe(Infinity);
  });
});
