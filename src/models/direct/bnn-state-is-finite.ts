import type { DirectBnnState } from './bnn-state.js';

/**
 * Whether a `direct-bnn` state can be fitted: statistics and logits finite, and a bound on every
 * term of the ELBO and its gradient finite. With w̄ = max(1, largest |atom|), T⁴ = Σ_i T_iiii (every
 * |T_ijkl| ≤ max_i T_iiii by Hölder) and σ²min the smallest noise atom, that bound is
 * (yᵀy + w̄³·Σ|S_ij| + 8 (H+1)² w̄⁸ D⁴ T⁴) / σ²min; statistics finite but past it (inputs near 1e77,
 * whose fourth powers are finite) would make every fit NaN.
 */
export function directBnnStateIsFinite(state: DirectBnnState): boolean {
  const { grid, stats, shape } = state;
  if (!state.logits.every(Number.isFinite) || !Number.isFinite(stats.records) || !Number.isFinite(state.sinceFit) || !Number.isFinite(stats.yty)) return false;
  if (!stats.fourth.every(Number.isFinite) || !stats.crossY.every(Number.isFinite)) return false;
  let atom = 1;
  for (let i = 0; i < grid.support.length; i++) atom = Math.max(atom, Math.abs(grid.support[i]));
  let smallestNoise = Infinity;
  for (let k = 0; k < grid.K; k++) smallestNoise = Math.min(smallestNoise, grid.noiseSupport[k]);
  let crossY = 0;
  for (let i = 0; i < stats.crossY.length; i++) crossY += Math.abs(stats.crossY[i]);
  const { D, H } = shape;
  let fourth = 0;
  for (let i = 0, p = 0; i < D; i++) {
    fourth += stats.fourth[p];
    p += ((D - i) * (D - i + 1) * (D - i + 2)) / 6;
  }
  const bound = stats.yty + atom ** 3 * crossY + 8 * (H + 1) ** 2 * atom ** 8 * D ** 4 * fourth;
  return Number.isFinite(bound / smallestNoise);
}
