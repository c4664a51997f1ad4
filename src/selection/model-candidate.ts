import type { FeatureTransform } from './feature-transform.js';

/** One model to compare: a family, its options, and the features it sees (default: the columns as they are). */
export interface ModelCandidate {
  /** Unique among the candidates; default: the family and the transform, e.g. `vb-linear polynomial(2)`. */
  readonly name?: string;
  /** Registry id of a family whose models offer `evidenceBound()`. */
  readonly family: string;
  readonly options?: { readonly [key: string]: unknown };
  readonly features?: FeatureTransform;
}
