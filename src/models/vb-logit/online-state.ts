import type { GaussianPosterior } from './gaussian-posterior.js';

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
}
