import { describe, expect, it } from 'vitest';
import { digamma, lgamma } from '../../src/special/index.js';
import { reference, relativeError, worstRelativeError } from './reference.js';

describe('lgamma', () => {
  // Measured max relative error vs mpmath: 2.3e-16 for x > 0 (including next to the zeros at
  // 1 and 2), 1.2e-15 for x < 0 (at -2.5, close to the zero of log|Γ| near -2.457).
  it('matches mpmath for x > 0 to 1e-15 relative', () => {
    const table = reference.lgamma.filter(([x]) => x > 0);
    const { error, at } = worstRelativeError(lgamma, table);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(1e-15);
  });

  it('matches mpmath for negative non-integers to 5e-15 relative', () => {
    const table = reference.lgamma.filter(([x]) => x < 0);
    const { error, at } = worstRelativeError(lgamma, table);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(5e-15);
  });

  it('is exact at 1 and 2 and accurate just beside them', () => {
    expect(lgamma(1)).toBe(0);
    expect(lgamma(2)).toBe(0);
    // lgamma(1 + h) = -γh + (π²/12)h² + O(h³)
    const h = 2 ** -40;
    const near = -0.5772156649015329 * h + 0.8224670334241132 * h * h;
    expect(relativeError(lgamma(1 + h), near)).toBeLessThanOrEqual(1e-15);
  });

  it('follows lgamma(x + 1) = lgamma(x) + log x', () => {
    for (const x of [0.3, 1.7, 4.2, 9.6, 12.5, 250.25]) {
      const lhs = lgamma(x + 1);
      expect(Math.abs(lhs - lgamma(x) - Math.log(x))).toBeLessThanOrEqual(4e-16 * Math.max(1, Math.abs(lhs)));
    }
  });

  it('has poles at non-positive integers and IEEE edge cases', () => {
    for (const x of [0, -0, -1, -2, -50, -Infinity, Infinity]) expect(lgamma(x)).toBe(Infinity);
    expect(lgamma(NaN)).toBeNaN();
    expect(lgamma(1e307)).toBe(Infinity);
  });
});

describe('digamma', () => {
  // Measured max relative error vs mpmath: 9.6e-16 for x > 0, 2.9e-15 for x < 0 (at -10.7,
  // where ψ(11.7) and π·cot(πx) nearly cancel).
  it('matches mpmath for x > 0 to 2e-15 relative', () => {
    const table = reference.digamma.filter(([x]) => x > 0);
    const { error, at } = worstRelativeError(digamma, table);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(2e-15);
  });

  it('matches mpmath for negative non-integers to 1e-14 relative', () => {
    const table = reference.digamma.filter(([x]) => x < 0);
    const { error, at } = worstRelativeError(digamma, table);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(1e-14);
  });

  it('is small in absolute terms at its positive zero', () => {
    expect(Math.abs(digamma(1.4616321449683622))).toBeLessThanOrEqual(1e-15);
  });

  it('has the documented special values', () => {
    expect(digamma(0)).toBe(-Infinity);
    expect(digamma(-0)).toBe(Infinity);
    expect(digamma(-3)).toBeNaN();
    expect(digamma(-Infinity)).toBeNaN();
    expect(digamma(Infinity)).toBe(Infinity);
    expect(digamma(NaN)).toBeNaN();
  });
});
