import { NoiseTerms } from './noise-terms.js';
import type { DirectGrid, DirectStatistics } from './state.js';
import { gemv } from '../../linalg/gemv.js';
import { completeGram } from './complete-gram.js';
import { softmaxRows } from './softmax-rows.js';

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/**
 * The exact mean-field ELBO of Evans & Nair, Theorem 1 (eq. 8), with the Gaussian constant −n/2·log 2π
 * that eq. (8) omits, so the value never exceeds log p(y); and its exact gradient in the softmax
 * logits. Parameters: b·m̄ weight logits (row j = weight j) then K noise logits. With
 * s_j = q_jᵀw̄_j, G = ΦᵀΦ and R = yᵀy − 2sᵀΦᵀy + sᵀGs − diag(G)ᵀs² + Σ_j G_jj q_jᵀw̄_j²:
 *
 *   ELBO = −n/2 (q_σᵀlog σ² + log 2π) − ½ (q_σᵀσ⁻²) R + Σ_j q_jᵀ(log p_j − log q_j) + q_σᵀ(log p_σ − log q_σ).
 *
 * Each evaluation is O(b·m̄ + b² + K) from the statistics alone (independent of n) and allocates
 * nothing. After `evaluate`, the fields below hold that point's terms.
 */
export class DirectElbo {
  /** Number of parameters b·m̄ + K. */
  readonly size: number;
  /** q_j (b×m̄) and q_σ (K) at the last evaluation. */
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly noiseQ: Float64Array;
  readonly logNoiseQ: Float64Array;
  /** s = E_q[w] and Var_q(w_j) at the last evaluation. */
  readonly mean: Float64Array;
  readonly variance: Float64Array;
  /** E_q[(y − Φw)ᵀ(y − Φw)] (R), E_q[σ⁻²], E_q[σ²] and E_q[log p(y | w, σ²)] at the last evaluation. */
  expectedSquaredResidual = 0;
  expectedInverseNoise = 0;
  expectedNoise = 0;
  expectedLogLikelihood = 0;
  private readonly secondMoment: Float64Array;
  private readonly gramMean: Float64Array;
  private readonly noise: NoiseTerms;

  constructor(readonly grid: DirectGrid, readonly stats: DirectStatistics) {
    const { b, mbar, K } = grid;
    this.size = b * mbar + K;
    this.q = new Float64Array(b * mbar);
    this.logQ = new Float64Array(b * mbar);
    this.noiseQ = new Float64Array(K);
    this.logNoiseQ = new Float64Array(K);
    this.mean = new Float64Array(b);
    this.variance = new Float64Array(b);
    this.secondMoment = new Float64Array(b);
    this.gramMean = new Float64Array(b);
    this.noise = new NoiseTerms(grid);
  }

  /** The ELBO at `logits`; when `gradient` is given, writes ∂ELBO/∂logits into it. */
  evaluate(logits: Float64Array, gradient?: Float64Array): number {
    const { b, mbar, K, support, logPrior } = this.grid;
    completeGram(this.stats);
    const { gram, phiTy, yty, n } = this.stats;
    const { q, logQ, noiseQ, logNoiseQ, mean, variance, secondMoment, gramMean } = this;
    softmaxRows(logits, b * mbar, 1, K, noiseQ, logNoiseQ);
    let klWeights = 0;
    for (let j = 0; j < b; j++) {
      const base = j * mbar;
      let max = -Infinity;
      for (let m = 0; m < mbar; m++) max = Math.max(max, logits[base + m]);
      let total = 0;
      for (let m = 0; m < mbar; m++) total += Math.exp(logits[base + m] - max);
      const logTotal = Math.log(total);
      let s = 0;
      let s2 = 0;
      for (let m = 0; m < mbar; m++) {
        const i = base + m;
        const l = logits[i] - max - logTotal;
        const p = Math.exp(l);
        logQ[i] = l;
        q[i] = p;
        s += p * support[i];
        s2 += p * support[i] * support[i];
        klWeights += p * (logPrior[i] - l);
      }
      mean[j] = s;
      secondMoment[j] = s2;
      variance[j] = Math.max(0, s2 - s * s);
    }
    gemv(gram, b, b, mean, gramMean);
    let r = yty;
    for (let j = 0; j < b; j++) {
      const gjj = gram[j * b + j];
      r += -2 * mean[j] * phiTy[j] + mean[j] * gramMean[j] - gjj * mean[j] * mean[j] + gjj * secondMoment[j];
    }
    const { noise } = this;
    noise.evaluate(noiseQ, logNoiseQ);
    const { expectedInverse: einv, expected: enoise, expectedLog: elog, kl: klNoise } = noise;
    this.expectedSquaredResidual = r;
    this.expectedInverseNoise = einv;
    this.expectedNoise = enoise;
    this.expectedLogLikelihood = -n * (0.5 * elog + HALF_LOG_2PI) - 0.5 * einv * r;
    if (gradient !== undefined) {
      for (let j = 0; j < b; j++) {
        const gjj = gram[j * b + j];
        const dRds = 2 * (gramMean[j] - gjj * mean[j] - phiTy[j]);
        let avg = 0;
        for (let m = 0; m < mbar; m++) {
          const i = j * mbar + m;
          const w = support[i];
          const g = -0.5 * einv * (w * dRds + gjj * w * w) + logPrior[i] - logQ[i];
          gradient[i] = g;
          avg += q[i] * g;
        }
        for (let m = 0; m < mbar; m++) {
          const i = j * mbar + m;
          gradient[i] = q[i] * (gradient[i] - avg);
        }
      }
      noise.logitGradient(noiseQ, logNoiseQ, n, r, gradient, b * mbar);
    }
    return this.expectedLogLikelihood + klWeights + klNoise;
  }
}
