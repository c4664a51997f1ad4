import { mirrorUpper } from '../../linalg/mirror-upper.js';
import type { VbLinearState } from './state.js';
import { fitVbLinear } from './variational-fit.js';
import { updateExpectedAlpha } from './alpha-update.js';

/**
 * Refits q(w, τ, α) to the statistics (the batch VB fit, Drugowitsch §2.2 / §2.4) and writes it
 * over the state's posterior. The fit starts from E[α] one update ahead of the current q when the
 * last refit converged on data (`state.warm`) and `fromScratch` is not set, with the weights ARD
 * pruned then still out (each may re-enter), else from c0/d0 — the reference's fit of these
 * statistics, bit for bit (a model's first fit, a merge). The fit writes w_N and V_N over the state's (the shell
 * keeps the old state and puts it back if the fit throws). XᵀX is first mirrored from its upper
 * triangle (the per-record updates keep only that). Statistics that overflowed are left for the
 * model's finiteness check (which refuses the update as a non-finite posterior) instead of failing
 * inside the fit.
 */
export function refitVbLinear(state: VbLinearState, fromScratch = false): void {
  mirrorUpper(state.xtx, state.dim);
  if (!statisticsFinite(state)) return;
  let start: Float64Array | undefined;
  if (state.warm && !fromScratch) {
    start = state.alpha.slice();
    updateExpectedAlpha(state, state.w, state.V, state.an / state.bn, state.pruned, start);
  }
  const fit = fitVbLinear(state, state, start, start === undefined ? undefined : state.pruned);
  state.alpha.set(fit.alpha);
  state.pruned.set(fit.pruned);
  state.logDetV = fit.logDetV;
  state.an = fit.an;
  state.bn = fit.bn;
  state.iterations = fit.iterations;
  state.stopReason = fit.stopReason;
  state.warm = fit.stopReason === 'converged' && state.n > 0;
  state.sinceRefit = 0;
}

/** Whether yᵀy, Xᵀy and the diagonal of XᵀX are finite (an entry of XᵀX overflows only with a diagonal one). */
function statisticsFinite(state: VbLinearState): boolean {
  const { dim: d, xtx, xty } = state;
  if (!Number.isFinite(state.yty)) return false;
  for (let i = 0; i < d; i++) if (!Number.isFinite(xtx[i * d + i]) || !Number.isFinite(xty[i])) return false;
  return true;
}
