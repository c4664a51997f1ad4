import type { DirectBnnStatistics } from './bnn-state.js';
import type { DirectGrid } from './state.js';

/**
 * Sets the K noise logits of `logits` to a start around the labels' variance v̂ = yᵀy/n − (Σy/n)²
 * (the noise of the constant model; n and Σy are T_DDDD and S_DD): log q(σ²_k) = log p_σk −
 * (log σ²_k/v̂)² + const. Neither the prior's q(σ²), whose E[σ⁻²] the smallest atom dominates, nor the
 * optimum given a diffuse weight q (σ² at the largest atom) lets the fit leave the prior's mode.
 */
export function labelVarianceNoiseLogits(grid: DirectGrid, stats: DirectBnnStatistics, logits: Float64Array): void {
  const { b, mbar, K, noiseSupport, logNoisePrior } = grid;
  const n = stats.fourth[stats.fourth.length - 1];
  const mean = stats.crossY[stats.crossY.length - 1] / n;
  const variance = n > 0 ? Math.max(stats.yty / n - mean * mean, Number.MIN_VALUE) : 1;
  for (let k = 0; k < K; k++) logits[b * mbar + k] = logNoisePrior[k] - Math.log(noiseSupport[k] / variance) ** 2;
}
