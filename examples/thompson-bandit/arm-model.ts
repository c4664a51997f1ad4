import type { ArmModelSpec } from 'vbstream/bandit';

/** The per-arm logistic posteriors the example can run (each has `sample`). */
export const ARM_MODELS = ['vb-logit-online', 'pg-logit-sda', 'pg-logit-svi', 'vi-per'] as const;
export type ArmModelKind = (typeof ARM_MODELS)[number];

/**
 * The arm model of each kind, with the prior N(0, I): `vb-logit-online` (the bandit default for 0/1
 * rewards: per-record JJ update, has `forget`), `pg-logit-sda` (CAVI per reward with the current
 * posterior as prior, has `forget`), `pg-logit-svi` (one SVI step per reward, the posterior
 * representing a window of `window` records, has `forget`) or `vi-per` (L-BFGS on the VI-PER bound
 * per reward, no `forget`).
 */
export function armModelSpec(kind: ArmModelKind, window = 500): ArmModelSpec {
  switch (kind) {
    case 'vb-logit-online': return { family: 'vb-logit-online', options: { priorPrecision: 1 } };
    case 'pg-logit-sda': return { family: 'pg-logit', options: { mode: 'sda', prior: { mean: 0, covariance: 1 }, tol: 1e-8 } };
    case 'pg-logit-svi': return { family: 'pg-logit', options: { mode: 'svi', prior: { mean: 0, covariance: 1 }, effectiveSize: window } };
    case 'vi-per': return { family: 'vi-per', options: { prior: { mean: 0, covariance: 1 }, tol: 1e-9 } };
  }
}
