/** The fitted q of a `direct-bnn` model. */
export interface DirectBnnPosterior {
  /** Softmax logits: b·m̄ weight logits (row-major, weights ordered u, v, c), then K noise logits. */
  readonly logits: Float64Array;
  /** The exact mean-field ELBO (≤ log p(y)). */
  readonly elbo: number;
  /** q(w_j = w̄_jm), b×m̄ row-major. */
  readonly probs: Float64Array;
  /** q(σ² = σ²_k). */
  readonly noiseProbs: Float64Array;
  /** E_q[w] and Var_q(w_j). */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** Raw moments E_q[w_j^r], r = 1..4 (4 blocks of b). */
  readonly moments: Float64Array;
  /** E_q[σ²]. */
  readonly expectedNoise: number;
  /** Expected fraction of weights at the zero atom. */
  readonly sparsity: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** ELBO reached from each start of the last fit (empty after restore). */
  readonly startElbos: number[];
}
