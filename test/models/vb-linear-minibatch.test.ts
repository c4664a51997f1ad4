import { describe, expect, it } from 'vitest';
import { choleskyInverse } from '../../src/linalg/cholesky-inverse.js';
import { cholesky } from '../../src/linalg/cholesky.js';
import { createModel } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { linearData } from '../helpers/synthetic-data.js';

/** The largest |a − b| relative to max(1, |b|). */
function gap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < b.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  return worst;
}

describe('vb-linear minibatches between refits (issue 28, item 9)', () => {
  // A minibatch of at least d/4 records takes q(w, τ) for the held E[α] from the statistics in one
  // solve; one record at a time it comes from Sherman–Morrison updates. Both are the exact posterior
  // for that E[α], so they must agree to round-off. refitFraction 1e9: E[α] is fitted on the first
  // batch only, so both models hold the same E[α] throughout.
  it.each(['vb-linear', 'vb-linear-ard'] as const)('%s: minibatches of 3 to 40 records (weighted or not) give the posterior of the same records one at a time (1e-9)', (family) => {
    const d = 12;
    const data = linearData(800, d, 9);
    if (family === 'vb-linear-ard') for (let r = 0; r < data.n; r++) for (let j = 6; j < d; j++) data.x[r * d + j] *= 1e-4;
    const weights = Float64Array.from({ length: data.n }, (_, r) => (r % 5 === 0 ? 0.5 : r % 7 === 0 ? 2 : 1));
    for (const weighted of [false, true]) {
      const options = { refitFraction: 1e9 };
      const single = createModel(family, d, options);
      const batched = createModel(family, d, options);
      const first = { x: data.x.subarray(0, 40 * d), y: data.y.subarray(0, 40), n: 40, d, weights: weighted ? weights.subarray(0, 40) : undefined };
      single.update(first);
      batched.update(first);
      const rng = Rng.fromSeed(28);
      for (let r = 40; r < data.n;) {
        const m = Math.min(data.n - r, 3 + Math.floor(rng.nextDouble() * 38));
        const w = weighted ? weights.subarray(r, r + m) : undefined;
        batched.update({ x: data.x.subarray(r * d, (r + m) * d), y: data.y.subarray(r, r + m), n: m, d, weights: w });
        for (let k = r; k < r + m; k++) single.update({ x: data.x.subarray(k * d, (k + 1) * d), y: data.y.subarray(k, k + 1), n: 1, d, weights: weighted ? weights.subarray(k, k + 1) : undefined });
        r += m;
      }
      const a = batched.posterior();
      const b = single.posterior();
      expect(Array.from(a.pruned)).toEqual(Array.from(b.pruned));
      if (family === 'vb-linear-ard') expect(a.pruned.includes(1)).toBe(true);
      expect(gap(a.w, b.w)).toBeLessThan(1e-9);
      expect(gap(a.V, b.V)).toBeLessThan(1e-9);
      expect(Math.abs(a.logDetV - b.logDetV) / Math.max(1, Math.abs(b.logDetV))).toBeLessThan(1e-9);
      expect(Math.abs(a.bn - b.bn) / b.bn).toBeLessThan(1e-9);
      expect(a.an).toBe(b.an);
    }
  });
});

describe('choleskyInverse', () => {
  // The blocked loops must keep every entry's sum in the order of the plain formulas: L⁻¹ by forward
  // substitution (k ascending), then (L⁻¹)ᵀL⁻¹ summed over k ascending.
  it.each([1, 2, 3, 4, 5, 7, 8, 9, 16, 33])('n = %d: bit for bit the one-term-at-a-time formulas', (n) => {
    const rng = Rng.fromSeed(n);
    const g = Float64Array.from({ length: n * (n + 2) }, () => rng.normal());
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n + 2; k++) a[i * n + j] += g[i * (n + 2) + k] * g[j * (n + 2) + k];
    const l = new Float64Array(n * n);
    cholesky(a, n, l);
    const got = new Float64Array(n * n);
    choleskyInverse(l, n, got);
    const inv = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < i; k++) for (let j = 0; j <= k; j++) inv[i * n + j] -= l[i * n + k] * inv[k * n + j];
      for (let j = 0; j < i; j++) inv[i * n + j] /= l[i * n + i];
      inv[i * n + i] = 1 / l[i * n + i];
    }
    const want = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
      let sum = 0;
      for (let k = i; k < n; k++) sum += inv[k * n + i] * inv[k * n + j];
      want[i * n + j] = sum;
      want[j * n + i] = sum;
    }
    expect(Array.from(got)).toEqual(Array.from(want));
  });
});
