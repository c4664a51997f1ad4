import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gaussHermite, lgamma } from '../../src/special/index.js';
import { reference, relativeError } from './reference.js';

interface GoldenRule {
  n: number;
  convention: string;
  nodes: number[];
  weights: number[];
}

/** numpy hermgauss(100), shared with the sparse-GP reference data, read in place. */
const golden = JSON.parse(
  readFileSync(new URL('../../../shared/reference/sgp/gauss_hermite_100.json', import.meta.url), 'utf8'),
) as GoldenRule;

// Measured: n = 100 vs numpy nodes 1.8e-15 absolute, weights 4.6e-14 relative;
// n = 200 vs 60-digit mpmath nodes 3.6e-15 absolute, weights 1.4e-14 relative.
const NODE_TOL = 1e-14;
const WEIGHT_TOL = 1e-13;

describe('gaussHermite', () => {
  it('reproduces the shared physicists\' 100-point rule (numpy hermgauss)', () => {
    expect(golden.n).toBe(100);
    expect(golden.convention).toMatch(/physicists/);
    const { nodes, weights } = gaussHermite(100);
    for (let i = 0; i < 100; i++) {
      expect(Math.abs(nodes[i] - golden.nodes[i])).toBeLessThanOrEqual(NODE_TOL);
      expect(relativeError(weights[i], golden.weights[i])).toBeLessThanOrEqual(WEIGHT_TOL);
    }
  });

  it('matches a 60-digit mpmath rule at n = 200', () => {
    const { positiveNodes, positiveWeights } = reference.gaussHermite200;
    const { nodes, weights } = gaussHermite(200);
    for (let i = 0; i < 100; i++) {
      expect(Math.abs(nodes[100 + i] - positiveNodes[i])).toBeLessThanOrEqual(NODE_TOL);
      expect(relativeError(weights[100 + i], positiveWeights[i])).toBeLessThanOrEqual(WEIGHT_TOL);
      expect(nodes[99 - i]).toBe(-nodes[100 + i]);
      expect(weights[99 - i]).toBe(weights[100 + i]);
    }
  });

  it('has the closed-form small rules', () => {
    const sqrtPi = Math.sqrt(Math.PI);
    const one = gaussHermite(1);
    expect(Array.from(one.nodes)).toEqual([0]);
    expect(relativeError(one.weights[0], sqrtPi)).toBeLessThanOrEqual(4e-16);
    const three = gaussHermite(3);
    const x = Math.sqrt(1.5);
    expect(Math.abs(three.nodes[0] + x)).toBeLessThanOrEqual(4e-16);
    expect(three.nodes[1]).toBe(0);
    expect(Math.abs(three.nodes[2] - x)).toBeLessThanOrEqual(4e-16);
    expect(relativeError(three.weights[1], (2 * sqrtPi) / 3)).toBeLessThanOrEqual(4e-16);
    expect(relativeError(three.weights[2], sqrtPi / 6)).toBeLessThanOrEqual(4e-16);
  });

  it('integrates x^(2k) e^(-x²) exactly (k ≤ n - 1) for n up to 360', () => {
    for (const n of [2, 5, 16, 33, 64, 128, 255, 360]) {
      const { nodes, weights } = gaussHermite(n);
      for (let i = 1; i < n; i++) expect(nodes[i]).toBeGreaterThan(nodes[i - 1]);
      for (const k of [0, 1, 2, n >> 1, n - 1].filter((j) => j <= Math.min(n - 1, 150))) {
        let sum = 0;
        for (let i = 0; i < n; i++) {
          // wᵢxᵢ^(2k) in log form: x^(2k) alone overflows for the outer nodes at large k.
          sum += k === 0 ? weights[i] : Math.exp(Math.log(weights[i]) + 2 * k * Math.log(Math.abs(nodes[i])));
        }
        const exact = Math.exp(lgamma(k + 0.5));
        expect(relativeError(sum, exact), `n = ${n}, k = ${k}`).toBeLessThanOrEqual(1e-12);
      }
    }
  });

  it('memoises: the same n returns the same arrays', () => {
    expect(gaussHermite(20)).toBe(gaussHermite(20));
    expect(gaussHermite(20).nodes).toBe(gaussHermite(20).nodes);
  });

  it('rejects invalid n with RangeError', () => {
    for (const n of [0, -1, 2.5, NaN, 361]) expect(() => gaussHermite(n)).toThrow(RangeError);
  });
});
