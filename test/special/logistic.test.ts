import { describe, expect, it } from 'vitest';
import { jaakkolaJordanLambda, log1pexp, logSigmoid, sigmoid } from '../../src/special/index.js';
import { reference, relativeError, worstRelativeError } from './reference.js';

// Tolerance 1e-15 relative (measured max vs mpmath: log1pexp 1.8e-16, sigmoid 2.1e-16,
// logSigmoid 1.8e-16, jaakkolaJordanLambda 2.2e-16).
const TOL = 1e-15;

describe('log1pexp', () => {
  it('matches mpmath from -800 to 800', () => {
    const { error, at } = worstRelativeError(log1pexp, reference.log1pexp);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('does not overflow or underflow prematurely', () => {
    expect(log1pexp(800)).toBe(800);
    expect(log1pexp(-800)).toBe(0);
    expect(relativeError(log1pexp(-700), Math.exp(-700))).toBeLessThanOrEqual(TOL);
    expect(log1pexp(Infinity)).toBe(Infinity);
    expect(log1pexp(-Infinity)).toBe(0);
    expect(log1pexp(NaN)).toBeNaN();
  });
});

describe('sigmoid', () => {
  it('matches mpmath in both tails', () => {
    const { error, at } = worstRelativeError(sigmoid, reference.sigmoid);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('saturates cleanly', () => {
    expect(sigmoid(800)).toBe(1);
    expect(sigmoid(-800)).toBe(0);
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(Infinity)).toBe(1);
    expect(sigmoid(-Infinity)).toBe(0);
    expect(sigmoid(NaN)).toBeNaN();
  });
});

describe('logSigmoid', () => {
  it('matches mpmath from -800 to 800', () => {
    const { error, at } = worstRelativeError(logSigmoid, reference.logSigmoid);
    expect(error, `worst at x = ${at}`).toBeLessThanOrEqual(TOL);
    expect(logSigmoid(-800)).toBe(-800);
  });
});

describe('jaakkolaJordanLambda', () => {
  it('matches mpmath at 0, 1e-10, 1e-3, 1, 50 and beyond, for both signs', () => {
    const { error, at } = worstRelativeError(jaakkolaJordanLambda, reference.jaakkolaJordanLambda);
    expect(error, `worst at xi = ${at}`).toBeLessThanOrEqual(TOL);
  });

  it('is 1/8 at 0, even, continuous across the series switch and ≈ 1/(4|ξ|) far out', () => {
    expect(jaakkolaJordanLambda(0)).toBe(0.125);
    expect(jaakkolaJordanLambda(-0)).toBe(0.125);
    for (const xi of [1e-10, 1e-4, 0.3, 7]) expect(jaakkolaJordanLambda(-xi)).toBe(jaakkolaJordanLambda(xi));
    const below = jaakkolaJordanLambda(1e-4 * (1 - 2 ** -52));
    const above = jaakkolaJordanLambda(1e-4);
    expect(relativeError(below, above)).toBeLessThanOrEqual(4.5e-16);
    expect(relativeError(jaakkolaJordanLambda(1e6), 1 / 4e6)).toBeLessThanOrEqual(TOL);
    expect(jaakkolaJordanLambda(Infinity)).toBe(0);
    expect(jaakkolaJordanLambda(NaN)).toBeNaN();
  });
});
