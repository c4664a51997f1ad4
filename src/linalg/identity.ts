/** Fills a row-major n×n matrix with scale·I (allocating it if `out` is absent). */
export function identity(n: number, scale = 1, out: Float64Array = new Float64Array(n * n)): Float64Array {
  out.fill(0);
  for (let i = 0; i < n; i++) out[i * n + i] = scale;
  return out;
}
