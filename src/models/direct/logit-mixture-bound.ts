import { DirectLogisticBound } from './logistic-bound.js';
import { MixtureEntropyBound } from './mixture-entropy-bound.js';
import { softmaxRows } from './softmax-rows.js';
import type { DirectGrid } from './state.js';

/**
 * The DIRECT logistic ELBO bound for a mixture q(w) = Σ_k π_k Π_j q_kj(w_j) (Evans & Nair §4): the
 * Theorem-2 likelihood bound is linear in q, so E_q[log σ(c_i φ_iᵀw)] ≥ −Σ_k π_k E_{q_k}[exp(−c_i φ_iᵀw)],
 * each component's term the factorised product of Theorem 2 ({@link DirectLogisticBound}); E_q[log p(w)]
 * = Σ_k π_k Σ_j q_kjᵀlog p_j exactly; the entropy by Theorem 3's lower bound ({@link MixtureEntropyBound}):
 *
 *   L ≥ scale·Σ_k π_k Σ_i bound_ik + Σ_k π_k Σ_j q_kjᵀ log p_j + H_Thm3(q, a),
 *
 * a lower bound on the mean-field one's target, exact in its entropy when every component equals the
 * Taylor centre a. Parameters (softmax logits): r·b·m̄ component logits (component k, weight j at row
 * k·b + j), r mixture logits, b·m̄ Taylor-centre logits. Exact gradient; O(r·n·b·m̄ + r²·b·m̄) per
 * evaluation, no allocation.
 */
export class DirectLogitMixtureBound {
  readonly size: number;
  readonly mixtureOffset: number;
  readonly centreOffset: number;
  /** Component marginals q_kj (r·b×m̄) and π at the last evaluation. */
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly weights: Float64Array;
  readonly logWeights: Float64Array;
  readonly entropy: MixtureEntropyBound;
  private readonly likelihood: DirectLogisticBound;
  private readonly gq: Float64Array;
  private readonly likelihoods: Float64Array;
  private readonly priorTerms: Float64Array;
  private readonly weightGradient: Float64Array;

  /** Number of parameters for r components on `grid`: r·b·m̄ + r + b·m̄. */
  static sizeFor(grid: Pick<DirectGrid, 'b' | 'mbar'>, components: number): number {
    return components * (grid.b * grid.mbar + 1) + grid.b * grid.mbar;
  }

  constructor(readonly grid: DirectGrid, readonly components: number) {
    const { b, mbar } = grid;
    const r = components;
    this.mixtureOffset = r * b * mbar;
    this.centreOffset = this.mixtureOffset + r;
    this.size = this.centreOffset + b * mbar;
    this.q = new Float64Array(r * b * mbar);
    this.logQ = new Float64Array(r * b * mbar);
    this.weights = new Float64Array(r);
    this.logWeights = new Float64Array(r);
    this.entropy = new MixtureEntropyBound(b, mbar, r);
    this.likelihood = new DirectLogisticBound(grid);
    this.gq = new Float64Array(r * b * mbar);
    this.likelihoods = new Float64Array(r);
    this.priorTerms = new Float64Array(r);
    this.weightGradient = new Float64Array(r);
  }

  /**
   * The bound at `params` for n rows of features `phi` (n×b) with signed labels `signs` (±1) and
   * optional record weights, the likelihood scaled by `scale`; writes ∂/∂params into `gradient` when given.
   */
  evaluate(params: Float64Array, phi: Float64Array, signs: Float64Array, n: number, scale: number, gradient?: Float64Array, recordWeights?: Float64Array): number {
    const { b, mbar, logPrior } = this.grid;
    const r = this.components;
    const bm = b * mbar;
    const { q, logQ, weights, logWeights, entropy, gq, likelihoods, priorTerms, weightGradient } = this;
    softmaxRows(params, 0, r * b, mbar, q, logQ);
    softmaxRows(params, this.mixtureOffset, 1, r, weights, logWeights);
    let expectedLikelihood = 0;
    let expectedPrior = 0;
    for (let k = 0; k < r; k++) {
      likelihoods[k] = this.likelihood.expectedLikelihood(logQ, k * bm, phi, signs, n, recordWeights, gradient === undefined ? undefined : gq);
      let prior = 0;
      for (let i = 0; i < bm; i++) prior += q[k * bm + i] * logPrior[i];
      priorTerms[k] = prior;
      expectedLikelihood += weights[k] * likelihoods[k];
      expectedPrior += weights[k] * prior;
    }
    const value = scale * expectedLikelihood + expectedPrior + entropy.evaluate(q, weights, params, this.centreOffset);
    if (gradient === undefined) return value;
    for (let k = 0; k < r; k++) {
      const pk = weights[k];
      weightGradient[k] = entropy.subtractWeightGradient(k, weights, scale * likelihoods[k] + priorTerms[k]);
      for (let j = 0; j < b; j++) {
        const row = (k * b + j) * mbar;
        // G_m = q_m·∂L/∂q_m; the softmax chain rule gives G_m − q_m Σ_m' G_m'.
        let total = 0;
        for (let m = 0; m < mbar; m++) {
          const g = pk * (scale * gq[row + m] + q[row + m] * (logPrior[j * mbar + m] - entropy.componentGradient(q, weights, k, j, m)));
          gradient[row + m] = g;
          total += g;
        }
        for (let m = 0; m < mbar; m++) gradient[row + m] -= q[row + m] * total;
      }
    }
    let avg = 0;
    for (let k = 0; k < r; k++) avg += weights[k] * weightGradient[k];
    for (let k = 0; k < r; k++) gradient[this.mixtureOffset + k] = weights[k] * (weightGradient[k] - avg);
    entropy.centreLogitGradient(gradient, this.centreOffset);
    return value;
  }
}
