import { gemv } from '../../linalg/gemv.js';
import { completeGram } from './complete-gram.js';
import { softmaxRows } from './softmax-rows.js';
import type { DirectGrid, DirectStatistics } from './state.js';

/** Weights whose columns of G are added to Gs in one pass. */
const BLOCK = 8;

/**
 * Exact coordinate ascent (CAVI) on the mean-field ELBO of Theorem 1, used to initialise L-BFGS.
 * Given the other factors, the optimum of q(w_j) is closed-form: with c_j = (Gs)_j − G_jj s_j,
 *
 *   log q_jm = log p_jm + E[σ⁻²] (w̄_jm (Φᵀy)_j − w̄_jm c_j − ½ G_jj w̄_jm²) + const,
 *
 * and of q(σ²): log q_k = log p_σk − n/2 log σ²_k − R/(2σ²_k) + const. A sweep updates every q_j in
 * turn, keeping Gs current by one column of G per weight (O(b²) a sweep, O(b·m̄) for the softmaxes),
 * then q(σ²). Each step maximises the ELBO in its block, so the ELBO never decreases. The columns of
 * eight consecutive weights are added to Gs in one pass (each entry still receives them in weight
 * order, so Gs is the one-column-at-a-time result), which reads Gs an eighth as often.
 */
export class DirectCavi {
  private readonly q: Float64Array;
  private readonly logQ: Float64Array;
  private readonly noiseQ: Float64Array;
  private readonly logNoiseQ: Float64Array;
  private readonly mean: Float64Array;
  private readonly secondMoment: Float64Array;
  private readonly gramMean: Float64Array;
  private readonly blockSteps = new Float64Array(BLOCK);

  constructor(readonly grid: DirectGrid, readonly stats: DirectStatistics) {
    const { b, mbar, K } = grid;
    this.q = new Float64Array(b * mbar);
    this.logQ = new Float64Array(b * mbar);
    this.noiseQ = new Float64Array(K);
    this.logNoiseQ = new Float64Array(K);
    this.mean = new Float64Array(b);
    this.secondMoment = new Float64Array(b);
    this.gramMean = new Float64Array(b);
  }

  /**
   * Runs up to `maxSweeps` sweeps on `logits` (b·m̄ weight logits then K noise logits, rewritten in
   * place as normalised log-probabilities), stopping early once no mean moves by more than
   * `tolerance`·(1 + max|s|) and q(σ²) by more than `tolerance`. Returns the sweeps done.
   */
  run(logits: Float64Array, maxSweeps: number, tolerance = 1e-10): number {
    const { b, mbar, K, support, logPrior, noiseSupport, logNoisePrior } = this.grid;
    completeGram(this.stats);
    const { gram, phiTy, yty, n } = this.stats;
    const { q, logQ, noiseQ, logNoiseQ, mean, secondMoment, gramMean, blockSteps } = this;
    softmaxRows(logits, 0, b, mbar, q, logQ);
    softmaxRows(logits, b * mbar, 1, K, noiseQ, logNoiseQ);
    for (let j = 0; j < b; j++) {
      let s = 0;
      let s2 = 0;
      for (let m = 0; m < mbar; m++) { const i = j * mbar + m; s += q[i] * support[i]; s2 += q[i] * support[i] * support[i]; }
      mean[j] = s;
      secondMoment[j] = s2;
    }
    gemv(gram, b, b, mean, gramMean);
    let einv = 0;
    for (let k = 0; k < K; k++) einv += noiseQ[k] / noiseSupport[k];
    for (let sweep = 1; sweep <= maxSweeps; sweep++) {
      let largestStep = 0;
      let largestMean = 0;
      for (let j0 = 0; j0 < b; j0 += BLOCK) {
        const j1 = Math.min(b, j0 + BLOCK);
        for (let j = j0; j < j1; j++) {
          const gjj = gram[j * b + j];
          const linear = phiTy[j] - (gramMean[j] - gjj * mean[j]);
          let max = -Infinity;
          for (let m = 0; m < mbar; m++) {
            const i = j * mbar + m;
            const w = support[i];
            const l = logPrior[i] + einv * (w * linear - 0.5 * gjj * w * w);
            logits[i] = l;
            if (l > max) max = l;
          }
          let total = 0;
          for (let m = 0; m < mbar; m++) total += Math.exp(logits[j * mbar + m] - max);
          const shift = max + Math.log(total);
          let s = 0;
          let s2 = 0;
          for (let m = 0; m < mbar; m++) {
            const i = j * mbar + m;
            logits[i] -= shift;
            const p = Math.exp(logits[i]);
            s += p * support[i];
            s2 += p * support[i] * support[i];
          }
          const delta = s - mean[j];
          blockSteps[j - j0] = delta;
          if (delta !== 0) {
            const row = j * b;
            for (let k = j0; k < j1; k++) gramMean[k] += gram[row + k] * delta;
          }
          mean[j] = s;
          secondMoment[j] = s2;
          largestStep = Math.max(largestStep, Math.abs(delta));
          largestMean = Math.max(largestMean, Math.abs(s));
        }
        this.addBlockColumns(j0, j1);
      }
      let r = yty;
      for (let j = 0; j < b; j++) {
        const gjj = gram[j * b + j];
        r += -2 * mean[j] * phiTy[j] + mean[j] * gramMean[j] - gjj * mean[j] * mean[j] + gjj * secondMoment[j];
      }
      const offset = b * mbar;
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        const l = logNoisePrior[k] - 0.5 * n * Math.log(noiseSupport[k]) - r / (2 * noiseSupport[k]);
        logits[offset + k] = l;
        if (l > max) max = l;
      }
      let total = 0;
      for (let k = 0; k < K; k++) total += Math.exp(logits[offset + k] - max);
      const shift = max + Math.log(total);
      let noiseStep = 0;
      einv = 0;
      for (let k = 0; k < K; k++) {
        logits[offset + k] -= shift;
        const p = Math.exp(logits[offset + k]);
        noiseStep = Math.max(noiseStep, Math.abs(p - noiseQ[k]));
        noiseQ[k] = p;
        einv += p / noiseSupport[k];
      }
      if (largestStep <= tolerance * (1 + largestMean) && noiseStep <= tolerance) return sweep;
    }
    return maxSweeps;
  }

  /**
   * Adds G's columns j0 … j1 − 1 times their mean steps to Gs outside the block (inside it they were
   * added as each weight moved), in weight order per entry; a block whose means did not move is skipped.
   */
  private addBlockColumns(j0: number, j1: number): void {
    const { b } = this.grid;
    const { gram } = this.stats;
    const { gramMean, blockSteps } = this;
    let moved = false;
    for (let j = j0; j < j1; j++) if (blockSteps[j - j0] !== 0) moved = true;
    if (!moved) return;
    if (j1 - j0 < BLOCK) {
      for (let j = j0; j < j1; j++) {
        const delta = blockSteps[j - j0];
        if (delta === 0) continue;
        const row = j * b;
        for (let k = 0; k < j0; k++) gramMean[k] += gram[row + k] * delta;
        for (let k = j1; k < b; k++) gramMean[k] += gram[row + k] * delta;
      }
      return;
    }
    const [d0, d1, d2, d3, d4, d5, d6, d7] = blockSteps;
    const r0 = j0 * b;
    for (let part = 0; part < 2; part++) {
      const from = part === 0 ? 0 : j1;
      const to = part === 0 ? j0 : b;
      for (let k = from; k < to; k++) {
        const r = r0 + k;
        gramMean[k] = gramMean[k] + gram[r] * d0 + gram[r + b] * d1 + gram[r + 2 * b] * d2 + gram[r + 3 * b] * d3
          + gram[r + 4 * b] * d4 + gram[r + 5 * b] * d5 + gram[r + 6 * b] * d6 + gram[r + 7 * b] * d7;
      }
    }
  }
}
