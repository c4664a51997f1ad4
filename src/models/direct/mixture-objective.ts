import type { Rng } from '../../rng/rng.js';
import { completeGram } from './complete-gram.js';
import { MixtureEntropyBound } from './mixture-entropy-bound.js';
import { softmaxRows } from './softmax-rows.js';
import { NoiseTerms } from './noise-terms.js';
import type { DirectGrid, DirectStatistics } from './state.js';

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/**
 * The ELBO of a mixture of r factorised categoricals, q(w) = Σ_k π_k Π_j q_kj(w_j) (Evans & Nair §4),
 * with q(σ²) factorised as before. Everything is exact from the statistics except the entropy of
 * q(w), which is replaced by the lower bound of Theorem 3 (eq. 27), tight when q is one factorised
 * distribution equal to the Taylor centre a = ⊗_j a_j:
 *
 *   E_q[log p(y|w,σ²)] = −n/2 (q_σᵀlog σ² + log 2π) − ½ (q_σᵀσ⁻²) Σ_k π_k R_k   (R_k: Theorem 1's R for component k)
 *   E_q[log p(w)]      = Σ_k π_k Σ_j q_kjᵀ log p_j
 *   −qᵀlog q          ≥ 1 − Σ_k π_k Σ_j q_kjᵀ log a_j − Σ_k Σ_l π_k π_l Π_j Σ_m q_kjm q_ljm / a_jm
 *
 * so the value never exceeds the true ELBO, hence log p(y). The products are formed as exp of sums of
 * logs (the paper's remark). Parameters (all softmax logits): r·b·m̄ component logits (component k,
 * weight j at row k·b + j), r mixture logits, b·m̄ Taylor-centre logits, K noise logits. O(r·b² + r²·b·m̄)
 * per evaluation, independent of n, no allocation.
 *
 * The gradient is the bound's exact gradient, or, given an `rng`, the exact gradient of every exact
 * term plus the unbiased REINFORCE estimate of the true entropy's gradient of eq. (11),
 * ∇H = −E_q[(log q(w) + 1) ∇log q(w)], from `samples` draws (the Taylor centre then keeps the bound's
 * gradient, so the reported bound stays as tight as it can). The entropy parts are the shared
 * {@link MixtureEntropyBound}.
 */
export class DirectMixtureElbo {
  readonly size: number;
  /** Offsets of the mixture, Taylor-centre and noise logits. */
  readonly mixtureOffset: number;
  readonly centreOffset: number;
  readonly noiseOffset: number;
  /** Component marginals q_kj (r·b×m̄), π and q_σ at the last evaluation. */
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly weights: Float64Array;
  readonly logWeights: Float64Array;
  readonly noiseQ: Float64Array;
  readonly logNoiseQ: Float64Array;
  /** Per-component E[w] and Var(w_j) (r×b) at the last evaluation. */
  readonly means: Float64Array;
  readonly variances: Float64Array;
  expectedInverseNoise = 0;
  expectedNoise = 0;
  /** The Theorem-3 entropy bound (its value and centre a at the last evaluation). */
  readonly entropy: MixtureEntropyBound;
  private readonly secondMoments: Float64Array;
  private readonly gramMeans: Float64Array;
  private readonly residuals: Float64Array;
  private readonly priorTerms: Float64Array;
  private readonly probGradient: Float64Array;
  private readonly weightGradient: Float64Array;
  private readonly noise: NoiseTerms;

  /** Number of parameters for r components on `grid`: r·b·m̄ + r + b·m̄ + K. */
  static sizeFor(grid: Pick<DirectGrid, 'b' | 'mbar' | 'K'>, components: number): number {
    return components * (grid.b * grid.mbar + 1) + grid.b * grid.mbar + grid.K;
  }

  constructor(readonly grid: DirectGrid, readonly stats: DirectStatistics, readonly components: number) {
    const { b, mbar, K } = grid;
    const r = components;
    this.mixtureOffset = r * b * mbar;
    this.centreOffset = this.mixtureOffset + r;
    this.noiseOffset = this.centreOffset + b * mbar;
    this.size = this.noiseOffset + K;
    this.q = new Float64Array(r * b * mbar);
    this.logQ = new Float64Array(r * b * mbar);
    this.weights = new Float64Array(r);
    this.logWeights = new Float64Array(r);
    this.entropy = new MixtureEntropyBound(b, mbar, r);
    this.noiseQ = new Float64Array(K);
    this.logNoiseQ = new Float64Array(K);
    this.means = new Float64Array(r * b);
    this.variances = new Float64Array(r * b);
    this.secondMoments = new Float64Array(r * b);
    this.gramMeans = new Float64Array(r * b);
    this.residuals = new Float64Array(r);
    this.priorTerms = new Float64Array(r);
    this.probGradient = new Float64Array(r * b * mbar);
    this.weightGradient = new Float64Array(r);
    this.noise = new NoiseTerms(grid);
  }

  /** The Theorem-3 entropy bound at the last evaluation. */
  get entropyBound(): number {
    return this.entropy.value;
  }

  /**
   * The Theorem-3 ELBO bound at `params`; with `gradient`, writes its gradient (exact), or with `rng`
   * the exact terms' gradient plus the eq. (11) entropy estimate from `samples` draws.
   */
  evaluate(params: Float64Array, gradient?: Float64Array, rng?: Rng, samples = 0): number {
    const { b, mbar, K, support, logPrior } = this.grid;
    completeGram(this.stats);
    const { gram, phiTy, yty, n } = this.stats;
    const r = this.components;
    const { q, logQ, weights, logWeights, noiseQ, logNoiseQ, means, variances, secondMoments, gramMeans, residuals, priorTerms } = this;
    softmaxRows(params, 0, r * b, mbar, q, logQ);
    softmaxRows(params, this.mixtureOffset, 1, r, weights, logWeights);
    softmaxRows(params, this.noiseOffset, 1, K, noiseQ, logNoiseQ);
    let expectedResidual = 0;
    let expectedPrior = 0;
    for (let k = 0; k < r; k++) {
      let prior = 0;
      for (let j = 0; j < b; j++) {
        const row = (k * b + j) * mbar;
        let s = 0;
        let s2 = 0;
        for (let m = 0; m < mbar; m++) {
          const p = q[row + m];
          const w = support[j * mbar + m];
          s += p * w;
          s2 += p * w * w;
          prior += p * logPrior[j * mbar + m];
        }
        means[k * b + j] = s;
        secondMoments[k * b + j] = s2;
        variances[k * b + j] = Math.max(0, s2 - s * s);
      }
      let res = yty;
      for (let j = 0; j < b; j++) {
        const row = j * b;
        let gs = 0;
        for (let l = 0; l < b; l++) gs += gram[row + l] * means[k * b + l];
        gramMeans[k * b + j] = gs;
        const s = means[k * b + j];
        const gjj = gram[row + j];
        res += -2 * s * phiTy[j] + s * gs - gjj * s * s + gjj * secondMoments[k * b + j];
      }
      residuals[k] = res;
      priorTerms[k] = prior;
      expectedResidual += weights[k] * res;
      expectedPrior += weights[k] * prior;
    }
    const entropyBound = this.entropy.evaluate(q, weights, params, this.centreOffset);
    const { noise } = this;
    noise.evaluate(noiseQ, logNoiseQ);
    const { expectedInverse: einv, expected: enoise, expectedLog: elog, kl: klNoise } = noise;
    this.expectedInverseNoise = einv;
    this.expectedNoise = enoise;
    const value = -n * (0.5 * elog + HALF_LOG_2PI) - 0.5 * einv * expectedResidual + expectedPrior + entropyBound + klNoise;
    if (gradient !== undefined) this.gradient(gradient, expectedResidual, rng, samples);
    return value;
  }

  private gradient(gradient: Float64Array, expectedResidual: number, rng: Rng | undefined, samples: number): void {
    const { b, mbar, support, logPrior } = this.grid;
    const { gram, phiTy, n } = this.stats;
    const r = this.components;
    const { q, weights, noiseQ, logNoiseQ, means, gramMeans, residuals, priorTerms, probGradient, weightGradient, entropy } = this;
    const einv = this.expectedInverseNoise;
    const boundEntropy = rng === undefined;
    for (let k = 0; k < r; k++) {
      const pk = weights[k];
      const wg = -0.5 * einv * residuals[k] + priorTerms[k];
      weightGradient[k] = boundEntropy ? entropy.subtractWeightGradient(k, weights, wg) : wg;
      for (let j = 0; j < b; j++) {
        const gjj = gram[j * b + j];
        const dRds = 2 * (gramMeans[k * b + j] - gjj * means[k * b + j] - phiTy[j]);
        const row = (k * b + j) * mbar;
        for (let m = 0; m < mbar; m++) {
          const i = j * mbar + m;
          const w = support[i];
          let g = pk * (-0.5 * einv * (w * dRds + gjj * w * w) + logPrior[i]);
          const entropyGradient = entropy.componentGradient(q, weights, k, j, m);
          if (boundEntropy) g -= pk * entropyGradient;
          probGradient[row + m] = g;
        }
      }
    }
    for (let row = 0; row < r * b; row++) {
      let avg = 0;
      for (let m = 0; m < mbar; m++) avg += q[row * mbar + m] * probGradient[row * mbar + m];
      for (let m = 0; m < mbar; m++) gradient[row * mbar + m] = q[row * mbar + m] * (probGradient[row * mbar + m] - avg);
    }
    let avg = 0;
    for (let k = 0; k < r; k++) avg += weights[k] * weightGradient[k];
    for (let k = 0; k < r; k++) gradient[this.mixtureOffset + k] = weights[k] * (weightGradient[k] - avg);
    entropy.centreLogitGradient(gradient, this.centreOffset);
    this.noise.logitGradient(noiseQ, logNoiseQ, n, expectedResidual, gradient, this.noiseOffset);
    if (rng !== undefined) this.addEntropyGradient(gradient, rng, samples);
  }

  /** Adds the eq. (11) estimate of ∇H(q) from `samples` draws to `gradient` (component and mixture logits), at q and π of the last `evaluate`. */
  addEntropyGradient(gradient: Float64Array, rng: Rng, samples: number): void {
    this.entropy.addEntropyGradient(this.q, this.logQ, this.weights, this.logWeights, gradient, this.mixtureOffset, rng, samples);
  }
}
