import type { GaussianPosterior } from '../../gaussian/gaussian-posterior.js';
import { identity } from '../../linalg/identity.js';
import { optionChecks } from '../../core/option-checks.js';
import type { ForgettingBank } from '../../forgetting/forgetting-bank.js';
import type { VbLogitOnlineOptions } from './online-options.js';

/**
 * State of `vb-logit-online` (Drugowitsch §3.5.1, VBLinLogit vb_logit_fit_iter): q(w) = N(w, V) with
 * V and V⁻¹ both kept current by rank-one updates and ln|V| by the determinant lemma, under the prior
 * N(0, I/priorPrecision) (reference: priorPrecision = d, eq. 81).
 */
export interface VbLogitOnlineState {
  readonly dim: number;
  readonly priorPrecision: number;
  readonly tol: number;
  readonly maxIter: number;
  readonly posterior: GaussianPosterior;
  records: number;
  /** Adaptive forgetting: the other candidates' posteriors and their evidence (undefined when off; a member's own is undefined). */
  forgetting: ForgettingBank<VbLogitOnlineState> | undefined;
}

/** q(w) = the prior N(0, I/priorPrecision), no records, no adaptive forgetting (the family adds it); a bad option value throws `ConfigError`. */
export function createVbLogitOnlineState(dim: number, options: VbLogitOnlineOptions): VbLogitOnlineState {
  const priorPrecision = optionChecks.positive('priorPrecision', options.priorPrecision, dim);
  return {
    dim, priorPrecision,
    tol: optionChecks.positive('tol', options.tol, 1e-5),
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 500),
    records: 0, forgetting: undefined,
    posterior: { w: new Float64Array(dim), V: identity(dim, 1 / priorPrecision), invV: identity(dim, priorPrecision), logDetV: -dim * Math.log(priorPrecision), q: 0 },
  };
}
