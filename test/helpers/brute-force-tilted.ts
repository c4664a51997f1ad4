/** log ∫ exp(logLikelihood(f))·N(f; μ, s²) df by Simpson's rule on μ ± 14s, summed relative to the largest term. */
export function bruteForceLogZ(logLikelihood: (f: number) => number, mu: number, s2: number, intervals = 200_000): number {
  return integrate(logLikelihood, mu, s2, intervals).logZ;
}

/** Mean and variance of p̃(f) ∝ exp(logLikelihood(f))·N(f; μ, s²) by Simpson's rule on μ ± 14s, relative to the largest term. */
export function bruteForceTilted(logLikelihood: (f: number) => number, mu: number, s2: number, intervals = 200_000): { mean: number; variance: number } {
  const { mean, variance } = integrate(logLikelihood, mu, s2, intervals);
  return { mean, variance };
}

function integrate(logLikelihood: (f: number) => number, mu: number, s2: number, intervals: number): { mean: number; variance: number; logZ: number } {
  const s = Math.sqrt(s2);
  const h = (28 * s) / intervals;
  let max = -Infinity;
  for (let k = 0; k <= intervals; k++) {
    const t = -14 * s + k * h;
    max = Math.max(max, logLikelihood(mu + t) - (0.5 * t * t) / s2);
  }
  let z = 0;
  let m1 = 0;
  let m2 = 0;
  for (let k = 0; k <= intervals; k++) {
    const t = -14 * s + k * h;
    const weight = k === 0 || k === intervals ? 1 : k % 2 === 1 ? 4 : 2;
    const density = weight * Math.exp(logLikelihood(mu + t) - (0.5 * t * t) / s2 - max);
    z += density;
    m1 += density * t;
    m2 += density * t * t;
  }
  const shift = m1 / z;
  return { mean: mu + shift, variance: m2 / z - shift * shift, logZ: max + Math.log((z * h) / 3 / Math.sqrt(2 * Math.PI * s2)) };
}
