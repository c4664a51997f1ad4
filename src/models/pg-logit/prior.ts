/**
 * The Gaussian prior N(μ₀, Σ₀) of `pg-logit` in the form the updates use: μ₀, the precision Σ₀⁻¹,
 * the natural shift Σ₀⁻¹μ₀ and ln|Σ₀⁻¹|.
 */
export interface PgLogitPrior {
  readonly mean: Float64Array;
  /** Σ₀⁻¹ (d×d, row-major). */
  readonly precision: Float64Array;
  /** Σ₀⁻¹μ₀: the prior's λ₁. */
  readonly shift: Float64Array;
  /** ln|Σ₀⁻¹|. */
  readonly logdetPrecision: number;
}
