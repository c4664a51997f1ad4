/** The fitted q of a `direct` model, named as in posterior.json's extras. */
export interface DirectPosterior {
  /** Softmax logits: b·m̄ weight logits (row-major), then K noise logits. */
  readonly logits: Float64Array;
  /** The ELBO of Theorem 1 with every constant (≤ log p(y)); for a mixture, the Theorem-3 lower bound of the ELBO. */
  readonly elbo: number;
  /** Marginal q(w_j = w̄_jm), b×m̄ row-major (for a mixture, Σ_k π_k q_k(w_j = w̄_jm)). */
  readonly probs: Float64Array;
  /** q(σ² = σ²_k). */
  readonly noiseProbs: Float64Array;
  /** E_q[w] (s of eq. 9) and Var_q(w_j) (the diagonal of Cov_q(w); off-diagonals are 0 under mean field, not for a mixture). */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** E_q[σ²]. */
  readonly expectedNoise: number;
  /** Expected fraction of weights at the zero atom, (1/b) Σ_j q(w_j = 0). */
  readonly sparsity: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** ELBO reached from each start of the last fit (empty after restore); for a mixture, of the mean-field fit that initialises it. */
  readonly startElbos: number[];
  /** The mixture q(w) = Σ_k π_k Π_j q_kj(w_j): π (r), and per component the marginals (r·b×m̄), means and variances (r×b). r = 1 for mean field. */
  readonly components: { readonly weights: Float64Array; readonly probs: Float64Array; readonly means: Float64Array; readonly variances: Float64Array };
}
