/**
 * The predictive moments of `n` rows of `x` (row r at `r·d`) as the fit command prints them: E[y],
 * Var[y] and Var[f] per row, from a model's `moments` (DIRECT's linear and BNN families).
 */
export function predictiveMomentRows(model: { moments(x: Float64Array, offset: number): { mean: number; variance: number; varianceF: number } }, x: Float64Array, n: number, d: number): { mean: number[]; variance: number[]; varianceF: number[] } {
  const mean: number[] = [];
  const variance: number[] = [];
  const varianceF: number[] = [];
  for (let r = 0; r < n; r++) {
    const m = model.moments(x, r * d);
    mean.push(m.mean);
    variance.push(m.variance);
    varianceF.push(m.varianceF);
  }
  return { mean, variance, varianceF };
}
