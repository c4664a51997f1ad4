import type { DirectState } from './state.js';

/**
 * Whether a `direct` state can be fitted: its statistics, logits and mixture parameters are finite,
 * and so are the Theorem-1 ELBO and its gradient for every q on the grid. Both are bounded from the
 * statistics by (yᵀy + 2·w̄max·‖Φᵀy‖₁ + 5·w̄max²·‖ΦᵀΦ‖₁)/σ²min (w̄max the largest |atom|, σ²min the
 * smallest noise atom), which must be finite: statistics that are finite but past that bound (a
 * label near 1e153 with the default σ²min = 1e-4) would make every fit NaN.
 */
export function directStateIsFinite(state: DirectState): boolean {
  const { grid, stats } = state;
  if (!state.logits.every(Number.isFinite) || !state.mixture.every(Number.isFinite) || !Number.isFinite(stats.n) || !Number.isFinite(stats.records) || !Number.isFinite(state.sinceFit)) return false;
  let largestAtom = 0;
  for (let i = 0; i < grid.support.length; i++) largestAtom = Math.max(largestAtom, Math.abs(grid.support[i]));
  let smallestNoise = Infinity;
  for (let k = 0; k < grid.K; k++) smallestNoise = Math.min(smallestNoise, grid.noiseSupport[k]);
  let bound = stats.yty;
  for (let j = 0; j < stats.b; j++) bound += 2 * largestAtom * Math.abs(stats.phiTy[j]);
  for (let i = 0; i < stats.gram.length; i++) bound += 5 * largestAtom * largestAtom * Math.abs(stats.gram[i]);
  return Number.isFinite(bound / smallestNoise);
}
