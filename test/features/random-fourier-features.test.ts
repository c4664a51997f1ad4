import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { RandomFourierFeatures } from '../../src/features/random-fourier-features.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';

describe('RandomFourierFeatures', () => {
  const c = readReferenceJson('direct', 'enumeration_cases.json').cases.find((k: any) => k.rff !== undefined);

  it('reproduces the authors\' RBF_RFFs.Phi on case B (features stored to 6 decimals)', () => {
    const { X, X_test, Omega, lengthscales, n_rff } = c.rff;
    const d = lengthscales.length;
    const map = new RandomFourierFeatures(d, n_rff, Float64Array.from(Omega.flat()), Float64Array.from(lengthscales));
    expect(map.outputDim).toBe(c.b);
    for (const [inputs, phi] of [[X, c.Phi], [X_test, c.Phi_test]]) {
      const out = new Float64Array(inputs.length * map.outputDim);
      const x = Float64Array.from(inputs.flat());
      for (let r = 0; r < inputs.length; r++) map.map(x, r * d, out, r * map.outputDim);
      expectClose(out, phi.flat(), { abs: 5.0000001e-7 }, 'Phi');
    }
  });

  it('approximates the squared-exponential ARD kernel with many features', () => {
    const map = RandomFourierFeatures.sample(2, 4000, [0.7, 2], Rng.fromSeed(3));
    const a = Float64Array.of(0.3, -1);
    const b = Float64Array.of(-0.2, 0.5);
    const pa = new Float64Array(map.outputDim);
    const pb = new Float64Array(map.outputDim);
    map.map(a, 0, pa);
    map.map(b, 0, pb);
    let k = 0;
    for (let i = 0; i < map.outputDim; i++) k += pa[i] * pb[i];
    const exact = Math.exp(-0.5 * ((0.5 / 0.7) ** 2 + (1.5 / 2) ** 2));
    expect(Math.abs(k - exact)).toBeLessThan(0.05);
    let self = 0;
    for (let i = 0; i < map.outputDim; i++) self += pa[i] * pa[i];
    expect(self).toBeCloseTo(1, 12);
  });

  it('is seeded and refuses bad settings', () => {
    const one = RandomFourierFeatures.sample(3, 5, 1, Rng.fromSeed(9));
    const two = RandomFourierFeatures.sample(3, 5, 1, Rng.fromSeed(9));
    expect(Array.from(one.omega)).toEqual(Array.from(two.omega));
    expect(() => RandomFourierFeatures.sample(3, 5, [1, 2], Rng.fromSeed(1))).toThrow(ConfigError);
    expect(() => RandomFourierFeatures.sample(3, 0, 1, Rng.fromSeed(1))).toThrow(ConfigError);
    expect(() => RandomFourierFeatures.sample(2, 5, [1, -1], Rng.fromSeed(1))).toThrow(/lengthscale\[1\]/);
  });
});
