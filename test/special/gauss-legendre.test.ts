import { describe, expect, it } from 'vitest';
import { gaussLegendre } from '../../src/special/index.js';

/** numpy.polynomial.legendre.leggauss(8) and (5). */
const LEGGAUSS: { [n: number]: { nodes: number[]; weights: number[] } } = {
  8: {
    nodes: [-0.9602898564975362, -0.7966664774136267, -0.525532409916329, -0.18343464249564978, 0.18343464249564978, 0.525532409916329, 0.7966664774136267, 0.9602898564975362],
    weights: [0.10122853629037706, 0.22238103445337443, 0.3137066458778869, 0.36268378337836166, 0.36268378337836166, 0.3137066458778869, 0.22238103445337443, 0.10122853629037706],
  },
  5: {
    nodes: [-0.906179845938664, -0.5384693101056831, 0, 0.5384693101056831, 0.906179845938664],
    weights: [0.23692688505618928, 0.4786286704993663, 0.5688888888888887, 0.4786286704993663, 0.23692688505618928],
  },
};

describe('gaussLegendre', () => {
  it.each([8, 5])('reproduces numpy leggauss(%d)', (n) => {
    const { nodes, weights } = gaussLegendre(n);
    for (let i = 0; i < n; i++) {
      expect(Math.abs(nodes[i] - LEGGAUSS[n].nodes[i])).toBeLessThan(1e-15);
      expect(Math.abs(weights[i] - LEGGAUSS[n].weights[i])).toBeLessThan(1e-15);
    }
  });

  it('integrates polynomials of degree ≤ 2n − 1 exactly and refuses a bad n', () => {
    for (const n of [1, 3, 8, 40]) {
      const { nodes, weights } = gaussLegendre(n);
      for (let degree = 0; degree <= 2 * n - 1; degree++) {
        const sum = nodes.reduce((s, x, i) => s + weights[i] * x ** degree, 0);
        expect(sum).toBeCloseTo(degree % 2 === 1 ? 0 : 2 / (degree + 1), 13);
      }
    }
    expect(gaussLegendre(8)).toBe(gaussLegendre(8));
    expect(() => gaussLegendre(0)).toThrow(RangeError);
    expect(() => gaussLegendre(2.5)).toThrow(RangeError);
  });
});
