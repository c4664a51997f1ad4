import { describe, expect, it } from 'vitest';
import { erf, erfc, erfcx } from '../../src/special/index.js';
import { reference, relativeError, worstRelativeError } from './reference.js';

// Tolerances: 2e-15 relative (measured max vs mpmath: erfc 4.3e-16, erfcx 3.6e-16, erf 2.0e-16).
const TOL = 2e-15;

describe('erfc', () => {
  it('matches mpmath on [-40, 40] and in the deep tails', () => {
    const { error, at } = worstRelativeError(erfc, reference.erfc);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('has the documented tail values', () => {
    expect(relativeError(erfc(26), 5.663192408856143e-296)).toBeLessThanOrEqual(TOL);
    expect(erfc(27.3)).toBe(0);
    expect(erfc(Infinity)).toBe(0);
    expect(erfc(-Infinity)).toBe(2);
    expect(erfc(0)).toBe(1);
    expect(erfc(NaN)).toBeNaN();
  });

  it('satisfies erfc(-x) = 2 - erfc(x)', () => {
    for (const x of [0.1, 0.5, 1, 2.5, 5, 10]) {
      expect(relativeError(erfc(-x), 2 - erfc(x))).toBeLessThanOrEqual(2.3e-16);
    }
  });
});

describe('erfcx', () => {
  it('matches mpmath on [-26.6, 1e300]', () => {
    const { error, at } = worstRelativeError(erfcx, reference.erfcx);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('tends to 1/(x√π) and overflows to +Infinity below -26.7', () => {
    expect(relativeError(erfcx(1e10), 1 / (1e10 * Math.sqrt(Math.PI)))).toBeLessThanOrEqual(TOL);
    expect(erfcx(Infinity)).toBe(0);
    expect(erfcx(-26.7)).toBe(Infinity);
    expect(erfcx(-Infinity)).toBe(Infinity);
    expect(erfcx(0)).toBe(1);
    expect(erfcx(NaN)).toBeNaN();
  });
});

describe('erf', () => {
  it('matches mpmath, including subnormal arguments', () => {
    const { error, at } = worstRelativeError(erf, reference.erf);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('is odd, exact at 0 and saturates', () => {
    expect(Object.is(erf(-0), -0)).toBe(true);
    expect(erf(0)).toBe(0);
    expect(erf(1e-200)).toBe(1e-200 * (2 / Math.sqrt(Math.PI)));
    expect(erf(7)).toBe(1);
    expect(erf(-Infinity)).toBe(-1);
    expect(erf(NaN)).toBeNaN();
    for (const x of [0.3, 0.9, 3]) expect(erf(-x)).toBe(-erf(x));
  });
});
