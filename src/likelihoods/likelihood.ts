/** Partial derivatives of a Gaussian-expectation term with respect to the mean m and variance v. */
export interface MeanVarianceGradient {
  dm: number;
  dv: number;
}

/**
 * A likelihood p(y | f) seen through a Gaussian marginal q(f) = N(m, v), the two expectations the
 * families need (DESIGN.md, "likelihoods"):
 * - `expectedLogProb` = E_q[log p(y | f)], the ELBO data term;
 * - `logMarginal` = log E_q[p(y | f)], the log-loss DLM / predictive term.
 * Each writes its partial derivatives into `gradient` when one is passed. Implementations say
 * which method they use (closed form, a bound, Gauss–Hermite, Monte Carlo) and whether the value is
 * exact, a lower bound, or an estimate.
 */
export interface GaussianExpectationLikelihood {
  readonly name: string;
  expectedLogProb(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number;
  logMarginal(y: number, m: number, v: number, gradient?: MeanVarianceGradient): number;
  /**
   * The noise variance σ² of a likelihood that has one for a model to learn (the Gaussian's);
   * absent for likelihoods without a hyperparameter of their own, as are the two gradients below.
   */
  noiseVariance?: number;
  /** ∂ E_q[log p(y | f)] / ∂ log σ², present with {@link noiseVariance}. */
  expectedLogProbNoiseGradient?(y: number, m: number, v: number): number;
  /** ∂ log E_q[p(y | f)] / ∂ log σ², present with {@link noiseVariance}. */
  logMarginalNoiseGradient?(y: number, m: number, v: number): number;
}
