/**
 * A Gaussian posterior q(w) = N(w, V) as the logistic families hold it: V and its inverse, ln|V|,
 * and q = wᵀV⁻¹w (which the O(1) ξ iteration needs).
 */
export interface GaussianPosterior {
  readonly w: Float64Array;
  readonly V: Float64Array;
  readonly invV: Float64Array;
  logDetV: number;
  /** wᵀV⁻¹w. */
  q: number;
}
