/** The mean of the terms and its standard error sd/√n (sd with n − 1). */
export function meanAndStandardError(terms: Float64Array): [number, number] {
  const n = terms.length;
  const mean = terms.reduce((s, t) => s + t, 0) / n;
  const variance = terms.reduce((s, t) => s + (t - mean) ** 2, 0) / (n - 1);
  return [mean, Math.sqrt(variance / n)];
}
