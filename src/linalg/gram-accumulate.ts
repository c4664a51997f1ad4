/**
 * out += alpha·Xᵀ·diag(w)·X for a row-major n×d X (w omitted means all ones), both triangles
 * written so `out` stays exactly symmetric. Used for XᵀX and the 2·Xᵀ·Λ(ξ)·X of Drugowitsch eq. (46).
 */
export function gramAccumulate(x: Float64Array, n: number, d: number, out: Float64Array, alpha = 1, w?: Float64Array): void {
  for (let r = 0; r < n; r++) {
    const scale = w === undefined ? alpha : alpha * w[r];
    if (scale === 0) continue;
    const base = r * d;
    for (let i = 0; i < d; i++) {
      const s = scale * x[base + i];
      if (s === 0) continue;
      const row = i * d;
      for (let j = i; j < d; j++) out[row + j] += s * x[base + j];
    }
  }
  for (let i = 0; i < d; i++) for (let j = i + 1; j < d; j++) out[j * d + i] = out[i * d + j];
}
