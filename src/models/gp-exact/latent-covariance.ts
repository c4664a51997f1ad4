import type { GpExactState } from './state.js';
import { gpExactFactor, setGpExactKernel, type GpExactWorkspace } from './workspace.js';

/** Joint posterior covariance of f at the m rows of xs: K** − K*f(K + σ²I)⁻¹Kf*. O(n²m + nm²). */
export function gpExactLatentCovariance(state: GpExactState, workspace: GpExactWorkspace, xs: Float64Array, m: number): Float64Array {
  const n = state.records;
  const { kernel } = workspace;
  setGpExactKernel(workspace, state.params);
  const out = new Float64Array(m * m);
  if (n === 0) {
    kernel.cross(xs, m, xs, m, out);
    return out;
  }
  const f = gpExactFactor(state, workspace);
  const cross = new Float64Array(n * m);
  kernel.cross(state.x, n, xs, m, cross);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      const l = f.factor[i * n + j];
      for (let r = 0; r < m; r++) cross[i * m + r] -= l * cross[j * m + r];
    }
    const inv = 1 / f.factor[i * n + i];
    for (let r = 0; r < m; r++) cross[i * m + r] *= inv;
  }
  kernel.cross(xs, m, xs, m, out);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < m; r++) {
      const a = cross[i * m + r];
      for (let c = 0; c < m; c++) out[r * m + c] -= a * cross[i * m + c];
    }
  }
  return out;
}
