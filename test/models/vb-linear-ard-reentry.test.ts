import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/core/batch.js';
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
});
