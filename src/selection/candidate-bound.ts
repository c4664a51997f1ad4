import type { Batch } from '../core/batch.js';
import { NumericalError } from '../core/numerical-error.js';
import { getFamily } from '../registry.js';
import type { CheckedCandidate } from './checked-candidate.js';
import { transformFeatures } from './transform-features.js';

/** A fitted candidate: its variational lower bound on ln p(y | X) and the features it saw. */
export interface CandidateBound {
  readonly name: string;
  readonly family: string;
  readonly width: number;
  readonly bound: number;
}

/**
 * Fits a checked candidate to the whole data set in one batch (its features mapped by its transform)
 * and reads the variational bound L(Q) ≤ ln p(y | X) of that batch fit (Drugowitsch §2.6.4, §3.6.3).
 * A non-finite bound throws `NumericalError`; bad records throw the model's `InputError`.
 */
export function candidateBound(candidate: CheckedCandidate, data: Batch): CandidateBound {
  const model = getFamily(candidate.family).create(candidate.width, candidate.options);
  model.update(transformFeatures(candidate.features, data));
  const bound = model.evidenceBound!();
  if (!Number.isFinite(bound)) throw new NumericalError(`${candidate.name}: the variational bound is not finite`, { field: 'bound', value: bound });
  return { name: candidate.name, family: candidate.family, width: candidate.width, bound };
}
