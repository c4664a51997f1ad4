import type { GaussianExpectationLikelihood, MeanVarianceGradient } from '../../likelihoods/likelihood.js';
import type { GaussianPrior } from './gaussian-prior.js';
import type { CovarianceForm } from './options.js';

/** Records per block in the full form's data term. */
const BLOCK = 4;

/** Length of the packed parameter vector: μ (d), then the free entries of L. */
export function packedLength(d: number, form: CovarianceForm): number {
  return form === 'full' ? d + (d * (d + 1)) / 2 : 2 * d;
}

/**
 * The variational objective of a Gaussian q(β) = N(μ, LLᵀ) for Bernoulli-logit data
 * (Komodromos et al. 2024, eq. 11 with the VI-PER evaluator; the exact ELBO with Gauss–Hermite; the
 * Jaakkola–Jordan bound; the VI-MC estimate):
 *
 *   F(μ, L) = scale · Σᵢ wᵢ E_q[log p(yᵢ | xᵢᵀβ)] − KL(q ‖ N(m₀, S₀)),
 *
 * each E_q through the likelihood's expectedLogProb(yᵢ, θᵢ = xᵢᵀμ, τᵢ² = ‖Lᵀxᵢ‖²) (eq. 10 for the KL,
 * with the Mahalanobis term inside the ½). Parameters are packed as μ, then L row by row (full: the
 * lower triangle, the paper's Q'; diagonal: the d diagonal entries, the mean-field Q), with each
 * diagonal entry stored as its log so L stays a Cholesky factor. Analytic gradient:
 * ∂F/∂μ = Σ wᵢ ∂ₘ xᵢ − P₀(μ − m₀), ∂F/∂L = tril(2GL) − tril(P₀L) + diag(1/Lⱼⱼ) with
 * G = Σ wᵢ ∂ᵥ xᵢxᵢᵀ (never formed: (xᵢxᵢᵀL)ₐᵦ = xᵢₐ(Lᵀxᵢ)ᵦ). Scratch buffers are reused; one
 * evaluation costs O(n·d²) (full) or O(n·d) (diagonal) plus O(d³) for the KL.
 */
export class GaussianLogitObjective {
  /** The current L (row-major d×d, lower; zero above the diagonal). */
  readonly factor: Float64Array;
  private readonly u: Float64Array;
  private readonly gradL: Float64Array;
  private readonly centred: Float64Array;
  private readonly rowGradient: MeanVarianceGradient = { dm: 0, dv: 0 };
  private readonly blockU: Float64Array;
  private readonly blockTau2 = new Float64Array(BLOCK);
  private readonly blockGv = new Float64Array(BLOCK);

  constructor(readonly d: number, readonly form: CovarianceForm, public likelihood: GaussianExpectationLikelihood) {
    this.factor = new Float64Array(d * d);
    this.u = new Float64Array(d);
    this.gradL = new Float64Array(d * d);
    this.centred = new Float64Array(d);
    this.blockU = new Float64Array(BLOCK * d);
  }

  /** Writes μ and L into `params` (packed). */
  pack(mu: Float64Array, l: Float64Array, params: Float64Array): void {
    const d = this.d;
    params.set(mu.subarray(0, d));
    let k = d;
    for (let i = 0; i < d; i++) {
      if (this.form === 'full') for (let j = 0; j < i; j++) params[k++] = l[i * d + j];
      params[k++] = Math.log(l[i * d + i]);
    }
  }

  /** Reads μ (into `mu`) and L (into `this.factor`, and into `l` when given) from `params`. */
  unpack(params: Float64Array, mu: Float64Array, l: Float64Array = this.factor): void {
    const d = this.d;
    mu.set(params.subarray(0, d));
    l.fill(0);
    let k = d;
    for (let i = 0; i < d; i++) {
      if (this.form === 'full') for (let j = 0; j < i; j++) l[i * d + j] = params[k++];
      l[i * d + i] = Math.exp(params[k++]);
    }
    if (l !== this.factor) this.factor.set(l);
  }

  /**
   * F at the packed `params` (μ is read from params[0..d)), its gradient written into `gradient`
   * (same packing). Labels 0/1 or ±1 in `y`; `weights` optional; `scale` multiplies the data term
   * (n/B for a minibatch, 1 for a batch fit).
   */
  evaluate(params: Float64Array, gradient: Float64Array, x: Float64Array, y: Float64Array, n: number,
    weights: Float64Array | undefined, scale: number, prior: GaussianPrior): number {
    const { d, u, gradL, factor: l, rowGradient: g } = this;
    const full = this.form === 'full';
    l.fill(0);
    let k = d;
    for (let i = 0; i < d; i++) {
      if (full) for (let j = 0; j < i; j++) l[i * d + j] = params[k++];
      l[i * d + i] = Math.exp(params[k++]);
    }
    gradient.fill(0);
    gradL.fill(0);
    let data = 0;
    let r = 0;
    if (full) {
      for (; r + BLOCK <= n; r += BLOCK) data = this.fullBlock(r, data, params, gradient, x, y, weights, scale);
    }
    for (; r < n; r++) {
      const base = r * d;
      let theta = 0;
      for (let a = 0; a < d; a++) theta += x[base + a] * params[a];
      let tau2 = 0;
      if (full) {
        for (let b = 0; b < d; b++) {
          let sum = 0;
          for (let a = b; a < d; a++) sum += l[a * d + b] * x[base + a];
          u[b] = sum;
          tau2 += sum * sum;
        }
      } else {
        for (let b = 0; b < d; b++) {
          const value = l[b * d + b] * x[base + b];
          u[b] = value;
          tau2 += value * value;
        }
      }
      const w = scale * (weights === undefined ? 1 : weights[r]);
      data += w * this.likelihood.expectedLogProb(y[r], theta, tau2, g);
      const gm = w * g.dm;
      const gv = 2 * w * g.dv;
      for (let a = 0; a < d; a++) gradient[a] += gm * x[base + a];
      if (full) {
        for (let a = 0; a < d; a++) {
          const xa = gv * x[base + a];
          for (let b = 0; b <= a; b++) gradL[a * d + b] += xa * u[b];
        }
      } else {
        for (let b = 0; b < d; b++) gradL[b * d + b] += gv * x[base + b] * u[b];
      }
    }
    return data - this.klAndGradient(params, gradient, prior);
  }

  /**
   * Adds the data term of the full form for the four records r0 … r0 + 3 to `dataSoFar` and returns
   * it, arithmetic for arithmetic as one
   * record at a time: Lᵀxᵢ for the four rows shares each load of L (four independent sums), and the
   * rank-1 updates of the L gradient are added to it in record order with one load and store per four.
   */
  private fullBlock(r0: number, dataSoFar: number, params: Float64Array, gradient: Float64Array, x: Float64Array, y: Float64Array,
    weights: Float64Array | undefined, scale: number): number {
    const { d, blockU: u, blockTau2: tau2, blockGv: gv, gradL, factor: l, rowGradient: g } = this;
    const b0 = r0 * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    let t0 = 0;
    let t1 = 0;
    let t2 = 0;
    let t3 = 0;
    for (let b = 0; b < d; b++) {
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let a = b; a < d; a++) {
        const lab = l[a * d + b];
        s0 += lab * x[b0 + a];
        s1 += lab * x[b1 + a];
        s2 += lab * x[b2 + a];
        s3 += lab * x[b3 + a];
      }
      u[b] = s0;
      u[d + b] = s1;
      u[2 * d + b] = s2;
      u[3 * d + b] = s3;
      t0 += s0 * s0;
      t1 += s1 * s1;
      t2 += s2 * s2;
      t3 += s3 * s3;
    }
    tau2[0] = t0;
    tau2[1] = t1;
    tau2[2] = t2;
    tau2[3] = t3;
    let data = dataSoFar;
    for (let k = 0; k < BLOCK; k++) {
      const r = r0 + k;
      const base = r * d;
      let theta = 0;
      for (let a = 0; a < d; a++) theta += x[base + a] * params[a];
      const w = scale * (weights === undefined ? 1 : weights[r]);
      data += w * this.likelihood.expectedLogProb(y[r], theta, tau2[k], g);
      const gm = w * g.dm;
      gv[k] = 2 * w * g.dv;
      for (let a = 0; a < d; a++) gradient[a] += gm * x[base + a];
    }
    const v0 = gv[0];
    const v1 = gv[1];
    const v2 = gv[2];
    const v3 = gv[3];
    for (let a = 0; a < d; a++) {
      const x0 = v0 * x[b0 + a];
      const x1 = v1 * x[b1 + a];
      const x2 = v2 * x[b2 + a];
      const x3 = v3 * x[b3 + a];
      const row = a * d;
      for (let b = 0; b <= a; b++) gradL[row + b] = gradL[row + b] + x0 * u[b] + x1 * u[d + b] + x2 * u[2 * d + b] + x3 * u[3 * d + b];
    }
    return data;
  }

  /** KL(q ‖ prior) (eq. 10); subtracts its gradient from `gradient` and packs the L gradient (held in gradL) with the log-diagonal chain rule. */
  private klAndGradient(params: Float64Array, gradient: Float64Array, prior: GaussianPrior): number {
    const { d, gradL, centred, factor: l } = this;
    const p0 = prior.precision;
    const full = this.form === 'full';
    for (let a = 0; a < d; a++) centred[a] = params[a] - prior.mean[a];
    let mahalanobis = 0;
    for (let a = 0; a < d; a++) {
      let sum = 0;
      for (let b = 0; b < d; b++) sum += p0[a * d + b] * centred[b];
      gradient[a] -= sum;
      mahalanobis += centred[a] * sum;
    }
    let tracePSigma = 0;
    let logDetSigma = 0;
    let k = d;
    for (let a = 0; a < d; a++) {
      for (let b = full ? 0 : a; b <= a; b++) {
        let sum = 0;
        for (let c = full ? b : a; c < (full ? d : a + 1); c++) sum += p0[a * d + c] * l[c * d + b];
        const lab = l[a * d + b];
        tracePSigma += sum * lab;
        if (a === b) {
          logDetSigma += 2 * Math.log(lab);
          gradient[k++] = (gradL[a * d + a] - sum + 1 / lab) * lab;
        } else {
          gradient[k++] = gradL[a * d + b] - sum;
        }
      }
    }
    return 0.5 * (tracePSigma + mahalanobis - d + prior.logDetCovariance - logDetSigma);
  }
}
