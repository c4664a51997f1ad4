const LOG_2PI = 1.8378770664093456;

/**
 * Log density of the normal distribution N(mean, variance) at x:
 * −½(log 2π + log variance + (x − mean)²/variance).
 *
 * Domain: variance > 0 (variance ≤ 0 gives NaN; variance = +Infinity gives −Infinity).
 * Accuracy: a few ulps of the largest of the three terms.
 */
export function normalLogPdf(x: number, mean: number, variance: number): number {
  const d = x - mean;
  return -0.5 * (LOG_2PI + Math.log(variance) + (d * d) / variance);
}
