import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RbfKernel } from '../../src/kernels/rbf-kernel.js';

/** The plain double loop the kernel's blocked paths must reproduce bit for bit. */
function reference(kernel: RbfKernel, a: Float64Array, na: number, b: Float64Array, nb: number, adjoint: Float64Array,
  symmetric: boolean): { k: Float64Array; params: Float64Array; gradA: Float64Array } {
  const d = kernel.dim;
  const w = Array.from({ length: d }, (_, j) => 1 / kernel.lengthscale(j) ** 2);
  const k = new Float64Array(na * nb);
  for (let i = 0; i < na; i++) {
    for (let c = 0; c < nb; c++) {
      let r = 0;
      for (let j = 0; j < d; j++) r += (a[i * d + j] - b[c * d + j]) * (a[i * d + j] - b[c * d + j]) * w[j];
      k[i * nb + c] = kernel.variance * Math.exp(-0.5 * r);
    }
  }
  const params = Float64Array.from({ length: kernel.size }, (_, j) => 0.25 * j);
  const gradA = Float64Array.from({ length: na * d }, (_, j) => 0.5 - j / 7);
  let gVariance = 0;
  for (let i = 0; i < na; i++) {
    for (let c = 0; c < nb; c++) {
      const kb = adjoint[i * nb + c] * k[i * nb + c];
      gVariance += kb;
      const factor = symmetric ? kb + adjoint[c * nb + i] * k[c * nb + i] : kb;
      for (let j = 0; j < d; j++) {
        const diff = a[i * d + j] - b[c * d + j];
        const scaled = diff * w[j];
        params[kernel.ard ? 1 + j : 1] += kb * diff * scaled;
        gradA[i * d + j] -= factor * scaled;
      }
    }
  }
  params[0] += gVariance;
  return { k, params, gradA };
}

describe('RbfKernel', () => {
  it('cross and accumulateGradient equal the plain double loop bit for bit (ARD and isotropic, K(A, B) and K(A, A))', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), fc.boolean(), fc.boolean(), fc.integer(),
      (d, na, nb, ard, same, seed) => {
        let state = seed >>> 0;
        const next = (): number => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return 3 * (state / 2 ** 32 - 0.5); };
        const kernel = new RbfKernel(d, ard, 1.7, ard ? Array.from({ length: d }, (_, j) => 0.6 + 0.3 * j) : 0.8);
        const a = Float64Array.from({ length: na * d }, next);
        const b = same ? a : Float64Array.from({ length: nb * d }, next);
        const rows = same ? na : nb;
        const adjoint = Float64Array.from({ length: na * rows }, next);
        const expected = reference(kernel, a, na, b, rows, adjoint, same);
        const k = new Float64Array(na * rows);
        kernel.cross(a, na, b, rows, k);
        expect(Array.from(k)).toEqual(Array.from(expected.k));
        const params = Float64Array.from({ length: kernel.size }, (_, j) => 0.25 * j);
        const gradA = Float64Array.from({ length: na * d }, (_, j) => 0.5 - j / 7);
        kernel.accumulateGradient(adjoint, k, a, na, b, rows, params, gradA, same);
        expect(Array.from(params)).toEqual(Array.from(expected.params));
        expect(Array.from(gradA)).toEqual(Array.from(expected.gradA));
      }));
  });
});
