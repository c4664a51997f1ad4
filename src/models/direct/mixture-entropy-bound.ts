import type { Rng } from '../../rng/rng.js';
import { softmaxRows } from './softmax-rows.js';

/**
 * The entropy part of a DIRECT mixture q(w) = Σ_k π_k Π_j q_kj(w_j) over a grid of b weights with m̄
 * atoms (Evans & Nair §4), shared by the regression and the logistic mixture objectives: the lower
 * bound of Theorem 3 (eq. 27) on −qᵀlog q, with its Taylor centre a = ⊗_j a_j a variational parameter,
 *
 *   −qᵀlog q ≥ 1 − Σ_k π_k Σ_j q_kjᵀ log a_j − Σ_k Σ_l π_k π_l Π_j Σ_m q_kjm q_ljm / a_jm,
 *
 * exact when q is one factorised distribution equal to a; its exact gradient in q, π and a's logits;
 * and the unbiased eq. (11) REINFORCE estimate of the true entropy's gradient. The products are
 * formed as exp of sums of logs (the paper's remark). O(r²·b·m̄) per evaluation, no allocation.
 */
export class MixtureEntropyBound {
  /** a (b×m̄) and its logs at the last evaluation. */
  readonly centre: Float64Array;
  readonly logCentre: Float64Array;
  /** The bound at the last evaluation. */
  value = 0;
  private readonly centreTerms: Float64Array;
  private readonly overlaps: Float64Array;
  private readonly logOverlap: Float64Array;
  private readonly centreGradient: Float64Array;
  private readonly drawn: Int32Array;
  private readonly sampleLog: Float64Array;
  private readonly scale: Float64Array;

  constructor(readonly b: number, readonly mbar: number, readonly components: number) {
    const r = components;
    this.centre = new Float64Array(b * mbar);
    this.logCentre = new Float64Array(b * mbar);
    this.centreTerms = new Float64Array(r);
    this.overlaps = new Float64Array(r * r);
    this.logOverlap = new Float64Array(r * r * b);
    this.centreGradient = new Float64Array(b * mbar);
    this.drawn = new Int32Array(b);
    this.sampleLog = new Float64Array(r);
    this.scale = new Float64Array(r);
  }

  /** The bound for component marginals `q` (r·b×m̄), weights π and a's logits at `params[centreOffset ..]`. */
  evaluate(q: Float64Array, weights: Float64Array, params: Float64Array, centreOffset: number): number {
    const { b, mbar, components: r, centre, logCentre, centreTerms, overlaps, logOverlap } = this;
    softmaxRows(params, centreOffset, b, mbar, centre, logCentre);
    let expectedCentre = 0;
    for (let k = 0; k < r; k++) {
      let cross = 0;
      for (let j = 0; j < b; j++) {
        const row = (k * b + j) * mbar;
        for (let m = 0; m < mbar; m++) cross += q[row + m] * logCentre[j * mbar + m];
      }
      centreTerms[k] = cross;
      expectedCentre += weights[k] * cross;
    }
    let quadratic = 0;
    for (let k = 0; k < r; k++) {
      for (let l = k; l < r; l++) {
        let logProduct = 0;
        for (let j = 0; j < b; j++) {
          let overlap = 0;
          const rowK = (k * b + j) * mbar;
          const rowL = (l * b + j) * mbar;
          for (let m = 0; m < mbar; m++) overlap += (q[rowK + m] * q[rowL + m]) / centre[j * mbar + m];
          const lo = Math.log(overlap);
          logOverlap[(k * r + l) * b + j] = lo;
          logOverlap[(l * r + k) * b + j] = lo;
          logProduct += lo;
        }
        const e = Math.exp(logProduct);
        overlaps[k * r + l] = e;
        overlaps[l * r + k] = e;
        quadratic += (k === l ? 1 : 2) * weights[k] * weights[l] * e;
      }
    }
    this.value = 1 - expectedCentre - quadratic;
    this.centreGradient.fill(0);
    return this.value;
  }

  /** `partial` minus ∂bound/∂π_k's parts, in the order the objectives add them (Σ_j q_kjᵀlog a_j, then 2π_l·overlap_kl for each l). */
  subtractWeightGradient(k: number, weights: Float64Array, partial: number): number {
    const r = this.components;
    let wg = partial - this.centreTerms[k];
    for (let l = 0; l < r; l++) wg -= 2 * weights[l] * this.overlaps[k * r + l];
    return wg;
  }

  /**
   * −∂bound/∂q_kjm / π_k = log a_jm + 2 Σ_l π_l (overlap_kl / Σ_m' q_kjm' q_ljm'/a_jm') q_ljm / a_jm; also adds
   * q_kjm's share of ∂bound/∂a_jm (times π_k) to the centre gradient. Call once per (k, j, m) after `evaluate`.
   */
  componentGradient(q: Float64Array, weights: Float64Array, k: number, j: number, m: number): number {
    const { b, mbar, components: r, centre, overlaps, logOverlap } = this;
    const i = j * mbar + m;
    const row = (k * b + j) * mbar;
    let entropyTerm = 0;
    let centreTerm = 0;
    for (let l = 0; l < r; l++) {
      const e = overlaps[k * r + l];
      const factor = e === 0 ? 0 : (weights[l] * Math.exp(Math.log(e) - logOverlap[(k * r + l) * b + j])) / centre[i];
      entropyTerm += factor * q[(l * b + j) * mbar + m];
      if (l >= k) centreTerm += (l === k ? 1 : 2) * factor * q[(l * b + j) * mbar + m] * q[row + m] / centre[i];
    }
    this.centreGradient[i] += weights[k] * (centreTerm - q[row + m] / centre[i]);
    return this.logCentre[i] + 2 * entropyTerm;
  }

  /** Writes the gradient in a's logits (softmax chain rule of the centre gradient gathered by `componentGradient`) at `gradient[centreOffset ..]`. */
  centreLogitGradient(gradient: Float64Array, centreOffset: number): void {
    const { b, mbar, centre, centreGradient } = this;
    for (let j = 0; j < b; j++) {
      let a = 0;
      for (let m = 0; m < mbar; m++) a += centre[j * mbar + m] * centreGradient[j * mbar + m];
      for (let m = 0; m < mbar; m++) gradient[centreOffset + j * mbar + m] = centre[j * mbar + m] * (centreGradient[j * mbar + m] - a);
    }
  }

  /**
   * Adds to `gradient` (component logits at 0, mixture logits at `mixtureOffset`) the eq. (11) estimate
   * of ∇H(q) from `samples` draws w ~ q: −(1/t) Σ_i (log q(w_i) + 1) ∇log q(w_i), with
   * ∂log q(w)/∂θ_kjm = ρ_k(w)(1[w_j = m] − q_kjm) and ∂log q(w)/∂β_k = ρ_k(w) − π_k (ρ: the components'
   * responsibilities for w). Unbiased; O(t·r·b) plus the draws.
   */
  addEntropyGradient(q: Float64Array, logQ: Float64Array, weights: Float64Array, logWeights: Float64Array, gradient: Float64Array, mixtureOffset: number, rng: Rng, samples: number): void {
    const { b, mbar, components: r, drawn, sampleLog, scale } = this;
    scale.fill(0);
    const step = -1 / samples;
    for (let t = 0; t < samples; t++) {
      let u = rng.nextDouble();
      let c = r - 1;
      for (let k = 0; k < r - 1; k++) { u -= weights[k]; if (u < 0) { c = k; break; } }
      for (let j = 0; j < b; j++) {
        const row = (c * b + j) * mbar;
        let v = rng.nextDouble();
        let code = mbar - 1;
        for (let m = 0; m < mbar - 1; m++) { v -= q[row + m]; if (v < 0) { code = m; break; } }
        drawn[j] = code;
      }
      let max = -Infinity;
      for (let k = 0; k < r; k++) {
        let l = logWeights[k];
        for (let j = 0; j < b; j++) l += logQ[(k * b + j) * mbar + drawn[j]];
        sampleLog[k] = l;
        if (l > max) max = l;
      }
      let total = 0;
      for (let k = 0; k < r; k++) total += Math.exp(sampleLog[k] - max);
      const logDensity = max + Math.log(total);
      const coefficient = step * (logDensity + 1);
      for (let k = 0; k < r; k++) {
        const rho = Math.exp(sampleLog[k] - logDensity);
        const c2 = coefficient * rho;
        if (c2 === 0) continue;
        scale[k] += c2;
        for (let j = 0; j < b; j++) gradient[(k * b + j) * mbar + drawn[j]] += c2;
        gradient[mixtureOffset + k] += c2;
      }
      for (let k = 0; k < r; k++) gradient[mixtureOffset + k] -= coefficient * weights[k];
    }
    for (let k = 0; k < r; k++) {
      const sk = scale[k];
      if (sk === 0) continue;
      for (let i = k * b * mbar; i < (k + 1) * b * mbar; i++) gradient[i] -= sk * q[i];
    }
  }
}
