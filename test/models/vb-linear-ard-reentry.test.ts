import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/core/batch.js';
import { gemv } from '../../src/linalg/gemv.js';
import { vbLinearArdFamily } from '../../src/models/vb-linear/index.js';
import { Rng } from '../../src/rng/rng.js';

/** y = xᵀw + 0.5·ε with x ~ N(0, I), the first weight weak (0.05·N(0, 1)) so ARD prunes it and lets it back in, the others N(0, 1). */
function weakFirstWeight(n: number, d: number, seed: number): Batch {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, (_, j) => (j === 0 ? 0.05 : 1) * rng.normal());
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = rng.normal(); x[r * d + j] = v; s += w[j] * v; }
    y[r] = s + 0.5 * rng.normal();
  }
  return { x, y, n, d };
}

describe('vb-linear-ard: a weight that re-enters the fit', () => {
  it('w_N = V_N·Xᵀy (eq. 9) after every update, also when the last pruned weight re-enters and the fit goes on with none pruned', () => {
    let worst = 0;
    for (const d of [3, 5]) {
      for (let seed = 1; seed <= 4; seed++) {
        const data = weakFirstWeight(300, d, seed);
        const model = vbLinearArdFamily.create(d);
        for (let r = 0; r < data.n; r++) {
          model.update({ x: data.x.subarray(r * d, (r + 1) * d), y: data.y.subarray(r, r + 1), n: 1, d });
          const { w, V } = model.posterior();
          const xty = model.snapshot().arrays.xty;
          for (let i = 0; i < d; i++) {
            let vxty = 0;
            for (let j = 0; j < d; j++) vxty += V[i * d + j] * xty[j];
            worst = Math.max(worst, Math.abs(w[i] - vxty) / (1 + Math.abs(vxty)));
          }
        }
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('a fit that ends with weights pruned: w_N is bit for bit V_N·Xᵀy over all d weights (the passes run on the kept block; the pruned terms are ±0)', () => {
    const d = 25;
    const truth = [1.5, -2, 0.8, 3, -1.2];
    const rng = Rng.fromSeed(16);
    const n = 2000;
    const x = Float64Array.from({ length: n * d }, () => rng.normal());
    const y = Float64Array.from({ length: n }, (_, r) => truth.reduce((s, t, j) => s + t * x[r * d + j], 0) + 0.5 * rng.normal());
    const model = vbLinearArdFamily.create(d);
    model.update({ x, y, n, d });
    const { w, V, pruned } = model.posterior();
    expect(pruned.filter((p) => p === 1).length).toBeGreaterThan(10);
    const full = new Float64Array(d);
    gemv(V, d, d, model.snapshot().arrays.xty, full);
    for (let i = 0; i < d; i++) expect(Object.is(w[i], full[i]), `weight ${i + 1}`).toBe(true);
  });
});

