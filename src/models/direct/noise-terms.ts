import type { DirectGrid } from './state.js';

/**
 * The noise posterior's part of Evans & Nair's exact ELBO (Theorem 1, eq. 8) for a discrete q_σ on
 * the grid's K atoms of σ²: its moments (`evaluate`) and the gradient in its softmax logits
 * (`logitGradient`), shared by the linear, mixture and BNN objectives. Allocates only when built.
 */
export class NoiseTerms {
  /** q_σᵀσ⁻², q_σᵀσ², q_σᵀlog σ² and q_σᵀ(log p_σ − log q_σ) at the last `evaluate`. */
  expectedInverse = 0;
  expected = 0;
  expectedLog = 0;
  kl = 0;
  private readonly atomGradient: Float64Array;

  constructor(private readonly grid: DirectGrid) {
    this.atomGradient = new Float64Array(grid.K);
  }

  evaluate(noiseQ: Float64Array, logNoiseQ: Float64Array): void {
    const { K, noiseSupport, logNoisePrior } = this.grid;
    let einv = 0;
    let enoise = 0;
    let elog = 0;
    let kl = 0;
    for (let k = 0; k < K; k++) {
      einv += noiseQ[k] / noiseSupport[k];
      enoise += noiseQ[k] * noiseSupport[k];
      elog += noiseQ[k] * Math.log(noiseSupport[k]);
      kl += noiseQ[k] * (logNoisePrior[k] - logNoiseQ[k]);
    }
    this.expectedInverse = einv;
    this.expected = enoise;
    this.expectedLog = elog;
    this.kl = kl;
  }

  /**
   * Writes ∂ELBO/∂(noise logits) to `gradient[offset, offset + K)`: the per-atom terms
   * −n/2·log σ²_k − R/(2σ²_k) + log p_σk − log q_σk through the softmax, q_σk (g_k − q_σᵀg), for the
   * expected squared residual R and record count n.
   */
  logitGradient(noiseQ: Float64Array, logNoiseQ: Float64Array, n: number, expectedResidual: number, gradient: Float64Array, offset: number): void {
    const { K, noiseSupport, logNoisePrior } = this.grid;
    const g = this.atomGradient;
    let avg = 0;
    for (let k = 0; k < K; k++) {
      g[k] = -0.5 * n * Math.log(noiseSupport[k]) - expectedResidual / (2 * noiseSupport[k]) + logNoisePrior[k] - logNoiseQ[k];
      avg += noiseQ[k] * g[k];
    }
    for (let k = 0; k < K; k++) gradient[offset + k] = noiseQ[k] * (g[k] - avg);
  }
}
