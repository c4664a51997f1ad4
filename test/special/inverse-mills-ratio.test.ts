import { describe, expect, it } from 'vitest';
import { inverseMillsRatio } from '../../src/special/inverse-mills-ratio.js';
import { logNormalCdf } from '../../src/special/log-normal-cdf.js';

describe('inverseMillsRatio', () => {
  it('equals φ(z)/Φ(z) where that is well conditioned, and −z − 1/z + 2/z³ far in the lower tail; φ underflows to 0 in the upper', () => {
    for (const z of [-8, -3, -1, -0.1, 0, 0.1, 1, 3, 8]) {
      const direct = Math.exp(-0.5 * z * z - 0.5 * Math.log(2 * Math.PI) - logNormalCdf(z));
      expect(Math.abs(inverseMillsRatio(z) - direct)).toBeLessThan(1e-13 * Math.max(1, direct));
    }
    for (const z of [-1e3, -1e5, -1e8]) expect(Math.abs(inverseMillsRatio(z) / (-z - 1 / z + 2 / z ** 3) - 1)).toBeLessThan(1e-12);
    expect(inverseMillsRatio(40)).toBe(0);
  });
});
