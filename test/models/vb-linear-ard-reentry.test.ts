import { describe, expect, it } from 'vitest';
import { syntheticLinear } from '../../bench/synthetic-linear.js';
import { gemv } from '../../src/linalg/gemv.js';
import { vbLinearArdFamily } from '../../src/models/vb-linear/index.js';

describe('vb-linear-ard: a weight that re-enters the fit', () => {
  it('w_N = V_N·Xᵀy (eq. 9) after every update, also when the last pruned weight re-enters and the fit goes on with none pruned', () => {
    let worst = 0;
    for (const d of [3, 5]) {
      for (let seed = 1; seed <= 4; seed++) {
        // The first weight weak (0.05·N(0, 1)): ARD prunes it and lets it back in.
        const data = syntheticLinear(300, d, seed, (j, rng) => (j === 0 ? 0.05 : 1) * rng.normal());
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
    const data = syntheticLinear(2000, d, 16, (j) => truth[j] ?? 0);
    const model = vbLinearArdFamily.create(d);
    model.update(data);
    const { w, V, pruned } = model.posterior();
    expect(pruned.filter((p) => p === 1).length).toBeGreaterThan(10);
    const full = new Float64Array(d);
    gemv(V, d, d, model.snapshot().arrays.xty, full);
    for (let i = 0; i < d; i++) expect(Object.is(w[i], full[i]), `weight ${i + 1}`).toBe(true);
  });

  it('a weight whose re-entry precision underflows to 0 stays pruned: the fit is finite, not a refused batch (fast-check counterexample of "never produces NaN")', () => {
    // The first feature's scale (7.6e-155) makes s_i² underflow to 0: α_i = 0 gave V_N⁻¹ a diagonal of 5.7e-309, then NaN.
    const model = vbLinearArdFamily.create(2);
    model.update({ x: Float64Array.of(0, 0, 7.567784025750697e-155, -51.31833700541332), y: Float64Array.of(0, 999732.0966847135), n: 2, d: 2 });
    const { w, V, L, bn } = model.posterior();
    for (const v of [...w, ...V, L, bn]) expect(Number.isFinite(v)).toBe(true);
  });
});
