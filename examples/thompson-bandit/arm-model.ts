import type { OnlineModel } from 'vbstream';
import { getFamily } from 'vbstream';

/** The per-arm logistic posteriors the bandit can run (each has `sample`). */
export const ARM_MODELS = ['vb-logit-online', 'pg-logit-sda', 'pg-logit-svi', 'vi-per'] as const;
export type ArmModelKind = (typeof ARM_MODELS)[number];

/**
 * A fresh per-arm logistic posterior with the prior N(0, I) for every kind: `vb-logit-online`
 * (per-record JJ update, has `forget`), `pg-logit-sda` (CAVI per reward with the current posterior as
 * prior, has `forget`), `pg-logit-svi` (one SVI step per reward, the posterior representing a window
 * of `window` records, has `forget`) or `vi-per` (L-BFGS on the VI-PER bound per reward, no `forget`).
 */
export function createArmModel(kind: ArmModelKind, dim: number, window = 500): OnlineModel {
  switch (kind) {
    case 'vb-logit-online': return getFamily('vb-logit-online').create(dim, { priorPrecision: 1 });
    case 'pg-logit-sda': return getFamily('pg-logit').create(dim, { mode: 'sda', prior: { mean: 0, covariance: 1 }, tol: 1e-8 });
    case 'pg-logit-svi': return getFamily('pg-logit').create(dim, { mode: 'svi', prior: { mean: 0, covariance: 1 }, effectiveSize: window });
    case 'vi-per': return getFamily('vi-per').create(dim, { prior: { mean: 0, covariance: 1 }, tol: 1e-9 });
  }
}
