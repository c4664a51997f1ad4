/**
 * The largest posterior coefficients of a model at one moment, for the live view: feature indices
 * (the top k by |posterior mean|, in decreasing order), their posterior means and, when the family
 * can sample its posterior, their posterior standard deviations estimated from a few draws.
 */
export interface CoefficientSummary {
  readonly index: readonly number[];
  readonly mean: readonly number[];
  /** Monte Carlo posterior standard deviations (absent for a family without `sample`). */
  readonly sd?: readonly number[];
}
