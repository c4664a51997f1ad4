import { describe, expect, it, vi } from 'vitest';

const evaluations = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/special/sigmoid.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/special/sigmoid.js')>();
  return { sigmoid: (x: number) => { evaluations.count += 1; return original.sigmoid(x); } };
});

const { expectedSigmoid } = await import('../../src/models/pg-logit/expected-sigmoid.js');

/** σ written here, so the reference shares nothing with the code under test. */
const logistic = (x: number): number => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));

/** ∫ₐᵇ g by adaptive Simpson (Richardson-corrected), each piece to `tolerance`, with an explicit stack. */
function adaptiveSimpson(g: (z: number) => number, a: number, b: number, tolerance: number): number {
  const simpson = (lo: number, hi: number, flo: number, fmid: number, fhi: number) => ((hi - lo) / 6) * (flo + 4 * fmid + fhi);
  const mid = 0.5 * (a + b);
  const stack = [[a, b, g(a), g(mid), g(b), tolerance]];
  let total = 0;
  while (stack.length > 0) {
    const [lo, hi, flo, fmid, fhi, tol] = stack.pop()!;
    const m = 0.5 * (lo + hi);
    const left = 0.5 * (lo + m);
    const right = 0.5 * (m + hi);
    const fl = g(left);
    const fr = g(right);
    const whole = simpson(lo, hi, flo, fmid, fhi);
    const halves = simpson(lo, m, flo, fl, fmid) + simpson(m, hi, fmid, fr, fhi);
    if (Math.abs(halves - whole) <= 15 * tol || hi - lo < 1e-15 * (1 + Math.abs(m))) total += halves + (halves - whole) / 15;
    else stack.push([lo, m, flo, fl, fmid, tol / 2], [m, hi, fmid, fr, fhi, tol / 2]);
  }
  return total;
}

/** E[σ(m + s·z)], z ~ N(0, 1), over |z| ≤ 14, split where σ turns (z₀ = −m/s, ± 50/s). */
function reference(m: number, v: number): number {
  const s = Math.sqrt(v);
  const z0 = -m / s;
  const cuts = [-14, z0 - 50 / s, z0, z0 + 50 / s, 14].map((z) => Math.min(14, Math.max(-14, z)));
  const g = (z: number) => (Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI)) * logistic(m + s * z);
  let sum = 0;
  for (let k = 0; k + 1 < cuts.length; k++) if (cuts[k + 1] > cuts[k]) sum += adaptiveSimpson(g, cuts[k], cuts[k + 1], 1e-14);
  return sum;
}

describe('pg-logit predict: E[σ(η)], η ~ N(m, v) (issue 28, item 2)', () => {
  const means = [...Array.from({ length: 21 }, (_, i) => -50 + 5 * i), -2, -1, -0.5, -0.1, 0.1, 0.5, 1, 2];
  const variances = Array.from({ length: 37 }, (_, i) => 10 ** (-6 + 0.5 * i));

  it('is within 1e-6 of an adaptive quadrature for means −50..50 and variances 1e-6..1e12', () => {
    let worst = 0;
    for (const m of means) {
      for (const v of variances) worst = Math.max(worst, Math.abs(expectedSigmoid(m, v) - reference(m, v)));
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('does the same work for every variance: a fixed number of σ evaluations, whatever m and v', () => {
    const counts = new Set<number>();
    for (const m of means) {
      for (const v of [...variances, 2, 30, 2500, 1e7, 1e9]) {
        evaluations.count = 0;
        expectedSigmoid(m, v);
        counts.add(evaluations.count);
      }
    }
    expect(Math.max(...counts)).toBeLessThanOrEqual(128);
  });
});
