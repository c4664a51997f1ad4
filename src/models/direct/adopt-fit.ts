import type { DirectQFit } from './q-fit.js';
import type { DirectState } from './state.js';

/** Commits a fit to the state: its logits become the warm start of the next fit and the posterior until the statistics change. */
export function adoptDirectFit(state: DirectState, fit: DirectQFit): void {
  state.logits.set(fit.logits);
  state.mixture.set(fit.mixture);
  state.stale = false;
  state.sinceFit = 0;
  state.lastFit = fit.diagnostics;
}
