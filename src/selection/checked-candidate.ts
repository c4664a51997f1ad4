import type { FeatureTransform } from './feature-transform.js';

/** A candidate after {@link checkCandidates}: named, its family known to bound the evidence, its transform and options checked. */
export interface CheckedCandidate {
  readonly name: string;
  readonly family: string;
  readonly options: { readonly [key: string]: unknown };
  readonly features: FeatureTransform;
  /** Features its model sees. */
  readonly width: number;
}
