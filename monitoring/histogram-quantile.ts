/**
 * The `q`-quantile of a histogram as Prometheus's `histogram_quantile` estimates it: `upper` the
 * buckets' increasing upper bounds (the last may be `Infinity`), `counts` the observations in each
 * (not cumulative); linear within the bucket the quantile falls in, whose lower bound is the
 * previous bucket's (0 for the first). In the unbounded last bucket it is the largest finite bound.
 * Undefined without observations.
 */
export function histogramQuantile(q: number, upper: readonly number[], counts: readonly number[]): number | undefined {
  const total = counts.reduce((sum, c) => sum + c, 0);
  if (!(total > 0)) return undefined;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    if (below + counts[i] >= rank && counts[i] > 0) {
      const lower = i === 0 ? 0 : upper[i - 1];
      if (!Number.isFinite(upper[i])) return lower;
      return lower + (upper[i] - lower) * ((rank - below) / counts[i]);
    }
    below += counts[i];
  }
  return upper[upper.length - 1];
}
