import type { GpExactState } from './state.js';
import { gpExactFactor, setGpExactKernel, type GpExactWorkspace } from './workspace.js';

/** Latent f at the m rows of xs: mean k*ᵀα and variance s² − k*ᵀ(K + σ²I)⁻¹k* (Rasmussen & Williams 2006, Alg. 2.1). */
export function gpExactLatent(state: GpExactState, workspace: GpExactWorkspace, xs: Float64Array, m: number): { mean: Float64Array; variance: Float64Array } {
  const n = state.records;
  const { kernel } = workspace;
  setGpExactKernel(workspace, state.params);
  const mean = new Float64Array(m);
  const variance = new Float64Array(m).fill(kernel.variance);
  if (n === 0) return { mean, variance };
  const f = gpExactFactor(state, workspace);
  const cross = new Float64Array(m * n);
  kernel.cross(xs, m, state.x, n, cross);
  const v = new Float64Array(n);
  for (let r = 0; r < m; r++) {
    for (let i = 0; i < n; i++) {
      mean[r] += cross[r * n + i] * f.alpha[i];
      let sum = cross[r * n + i];
      for (let j = 0; j < i; j++) sum -= f.factor[i * n + j] * v[j];
      v[i] = sum / f.factor[i * n + i];
      variance[r] -= v[i] * v[i];
    }
    if (variance[r] < 0) variance[r] = 0;
  }
  return { mean, variance };
}
