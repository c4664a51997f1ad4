import { normalCdf } from '../src/special/normal-cdf.js';
import { normalQuantile } from '../src/special/normal-quantile.js';

/** A Gaussian over the coefficients: mean and full covariance (d×d, row-major). */
export interface GaussianMoments {
  readonly mean: ArrayLike<number>;
  readonly covariance: Float64Array;
}

/**
 * Mean over the first `rows` rows of x (n×d) of the probability the yardstick's N(xᵀm_Y, xᵀS_Yx) puts
 * inside q's central `level` interval of the score xᵀβ (0.90 for level 0.9 is right; less is too narrow
 * or off-centre).
 */
export function scoreCoverage(yardstick: GaussianMoments, q: GaussianMoments, x: Float64Array, d: number, rows: number, level: number): number {
  const z = normalQuantile(0.5 + level / 2);
  const moments = (g: GaussianMoments, r: number): [number, number] => {
    let mean = 0;
    let variance = 0;
    for (let i = 0; i < d; i++) {
      mean += g.mean[i] * x[r * d + i];
      for (let j = 0; j < d; j++) variance += x[r * d + i] * g.covariance[i * d + j] * x[r * d + j];
    }
    return [mean, variance];
  };
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const [m, v] = moments(yardstick, r);
    const [mu, s2] = moments(q, r);
    const half = z * Math.sqrt(s2);
    total += normalCdf((mu + half - m) / Math.sqrt(v)) - normalCdf((mu - half - m) / Math.sqrt(v));
  }
  return total / rows;
}
