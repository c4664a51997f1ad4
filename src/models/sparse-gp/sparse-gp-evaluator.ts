import { cholesky } from '../../linalg/cholesky.js';
import { choleskyInverse } from '../../linalg/cholesky-inverse.js';
import { solveLowerTransposedRows } from '../../linalg/solve-lower-transposed-rows.js';
import type { RbfKernel } from '../../kernels/rbf-kernel.js';
import type { PointLossGradient, SparseGpObjective } from './point-loss.js';

/** The sparse GP's parameters as the evaluator reads them. `L` is the full M×M lower factor (raw diagonal). */
export interface SparseGpParameters {
  readonly kernel: RbfKernel;
  readonly meanConstant: number;
  readonly M: number;
  /** Inducing inputs, M×d row-major. */
  readonly Z: Float64Array;
  /** Mean of q(u) relative to the prior mean (or of q(v) when whitened). */
  readonly m: Float64Array;
  /** Lower Cholesky factor of the covariance of q(u) (or of q(v) when whitened). */
  readonly L: Float64Array;
  /** q over v with u = c + Lk·v, Lk = chol(Kuu) (whitened), or over u directly. */
  readonly whitened: boolean;
  /** Added to Kuu's diagonal before factorising. */
  readonly jitter: number;
  readonly beta: number;
}

/** Gradient buffers filled by {@link SparseGpEvaluator.evaluate}, in the parameterisation evaluated. */
export interface SparseGpGradient {
  readonly m: Float64Array;
  /** Full M×M; entries above the diagonal are left 0. */
  readonly L: Float64Array;
  readonly kernel: Float64Array;
  readonly Z: Float64Array;
  logNoise: number;
  meanConstant: number;
}

/**
 * out[o + i] += scale·Σ_k coef[c0 + k·cs]·src[(r0 + k)·n + i] for k < count and i < n: the sources in
 * groups of four (each group summed, then added to the target), then one by one; eight per pass (two
 * groups, one load and store of the target row), so the sums are the same for any pass width.
 */
function accumulateRows(out: Float64Array, o: number, src: Float64Array, r0: number, count: number, n: number,
  coef: Float64Array, c0: number, cs: number, scale: number): void {
  let k = 0;
  for (; k + 7 < count; k += 8) {
    const l0 = scale * coef[c0 + k * cs];
    const l1 = scale * coef[c0 + (k + 1) * cs];
    const l2 = scale * coef[c0 + (k + 2) * cs];
    const l3 = scale * coef[c0 + (k + 3) * cs];
    const l4 = scale * coef[c0 + (k + 4) * cs];
    const l5 = scale * coef[c0 + (k + 5) * cs];
    const l6 = scale * coef[c0 + (k + 6) * cs];
    const l7 = scale * coef[c0 + (k + 7) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    const s4 = s3 + n;
    const s5 = s4 + n;
    const s6 = s5 + n;
    const s7 = s6 + n;
    for (let i = 0; i < n; i++) {
      out[o + i] = out[o + i] + (l0 * src[s0 + i] + l1 * src[s1 + i] + l2 * src[s2 + i] + l3 * src[s3 + i])
        + (l4 * src[s4 + i] + l5 * src[s5 + i] + l6 * src[s6 + i] + l7 * src[s7 + i]);
    }
  }
  for (; k + 3 < count; k += 4) {
    const l0 = scale * coef[c0 + k * cs];
    const l1 = scale * coef[c0 + (k + 1) * cs];
    const l2 = scale * coef[c0 + (k + 2) * cs];
    const l3 = scale * coef[c0 + (k + 3) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    for (let i = 0; i < n; i++) out[o + i] += l0 * src[s0 + i] + l1 * src[s1 + i] + l2 * src[s2 + i] + l3 * src[s3 + i];
  }
  for (; k < count; k++) {
    const l = scale * coef[c0 + k * cs];
    const sk = (r0 + k) * n;
    for (let i = 0; i < n; i++) out[o + i] += l * src[sk + i];
  }
}

/**
 * The same as {@link accumulateRows} for two target rows at once (at o and o1, coefficients from c0 and
 * c1), each source row loaded once for both; the same groups of four, so each target's sums are
 * bit for bit those of its own accumulateRows over the same sources.
 */
function accumulateRowPair(out: Float64Array, o: number, o1: number, src: Float64Array, r0: number, count: number, n: number,
  coef: Float64Array, c0: number, c1: number, cs: number, scale: number): void {
  let k = 0;
  for (; k + 3 < count; k += 4) {
    const p0 = scale * coef[c0 + k * cs];
    const p1 = scale * coef[c0 + (k + 1) * cs];
    const p2 = scale * coef[c0 + (k + 2) * cs];
    const p3 = scale * coef[c0 + (k + 3) * cs];
    const q0 = scale * coef[c1 + k * cs];
    const q1 = scale * coef[c1 + (k + 1) * cs];
    const q2 = scale * coef[c1 + (k + 2) * cs];
    const q3 = scale * coef[c1 + (k + 3) * cs];
    const s0 = (r0 + k) * n;
    const s1 = s0 + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    for (let i = 0; i < n; i++) {
      const x0 = src[s0 + i];
      const x1 = src[s1 + i];
      const x2 = src[s2 + i];
      const x3 = src[s3 + i];
      out[o + i] += p0 * x0 + p1 * x1 + p2 * x2 + p3 * x3;
      out[o1 + i] += q0 * x0 + q1 * x1 + q2 * x2 + q3 * x3;
    }
  }
  for (; k < count; k++) {
    const p0 = scale * coef[c0 + k * cs];
    const q0 = scale * coef[c1 + k * cs];
    const sk = (r0 + k) * n;
    for (let i = 0; i < n; i++) {
      const x0 = src[sk + i];
      out[o + i] += p0 * x0;
      out[o1 + i] += q0 * x0;
    }
  }
}

/**
 * out[a, :] = Σ_{b ≥ a} l[b, a]·src[b, :] (M rows of length n, l lower-triangular M×M), bit for bit one
 * {@link accumulateRows} per row (groups of four from b = a): row a takes its first group alone, then
 * shares the aligned groups from b = a + 4 on with row a + 4.
 */
function lowerTransposedTimes(out: Float64Array, src: Float64Array, l: Float64Array, M: number, n: number): void {
  out.fill(0, 0, M * n);
  for (let a = 0; a < M; a++) {
    if (a % 8 >= 4) continue;
    const partner = a + 4;
    if (partner >= M) {
      accumulateRows(out, a * n, src, a, M - a, n, l, a * M + a, M, 1);
      continue;
    }
    accumulateRows(out, a * n, src, a, 4, n, l, a * M + a, M, 1);
    accumulateRowPair(out, a * n, partner * n, src, partner, M - partner, n, l, partner * M + a, partner * M + partner, M, 1);
  }
}

/** out[o + j] = Σ_i x[xa + i]·y[(j)·n + i] for j ≤ last (rows 0..last of y), eight rows of y per pass, then four, then one. */
function rowDots(x: Float64Array, xa: number, y: Float64Array, last: number, n: number, out: Float64Array, o: number): void {
  let j = 0;
  for (; j + 7 <= last; j += 8) {
    const r0 = j * n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let s4 = 0;
    let s5 = 0;
    let s6 = 0;
    let s7 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      const r = r0 + i;
      s0 += e * y[r];
      s1 += e * y[r + n];
      s2 += e * y[r + 2 * n];
      s3 += e * y[r + 3 * n];
      s4 += e * y[r + 4 * n];
      s5 += e * y[r + 5 * n];
      s6 += e * y[r + 6 * n];
      s7 += e * y[r + 7 * n];
    }
    out[o + j] = s0;
    out[o + j + 1] = s1;
    out[o + j + 2] = s2;
    out[o + j + 3] = s3;
    out[o + j + 4] = s4;
    out[o + j + 5] = s5;
    out[o + j + 6] = s6;
    out[o + j + 7] = s7;
  }
  for (; j + 3 <= last; j += 4) {
    const r0 = j * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      s0 += e * y[r0 + i];
      s1 += e * y[r1 + i];
      s2 += e * y[r2 + i];
      s3 += e * y[r3 + i];
    }
    out[o + j] = s0;
    out[o + j + 1] = s1;
    out[o + j + 2] = s2;
    out[o + j + 3] = s3;
  }
  for (; j <= last; j++) {
    const r = j * n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[xa + i] * y[r + i];
    out[o + j] = sum;
  }
}

/**
 * {@link rowDots} for two adjacent rows of x (at xa and xa + n) into out[o + j] and out[o1 + j], j ≤ last:
 * four rows of y per pass, each loaded once for both; every sum runs in the order of rowDots.
 */
function rowDotsPair(x: Float64Array, xa: number, y: Float64Array, last: number, n: number, out: Float64Array, o: number, o1: number): void {
  const xb = xa + n;
  let j = 0;
  for (; j + 3 <= last; j += 4) {
    const r0 = j * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    for (let i = 0; i < n; i++) {
      const e = x[xa + i];
      const f = x[xb + i];
      const y0 = y[r0 + i];
      const y1 = y[r1 + i];
      const y2 = y[r2 + i];
      const y3 = y[r3 + i];
      a0 += e * y0;
      a1 += e * y1;
      a2 += e * y2;
      a3 += e * y3;
      b0 += f * y0;
      b1 += f * y1;
      b2 += f * y2;
      b3 += f * y3;
    }
    out[o + j] = a0;
    out[o + j + 1] = a1;
    out[o + j + 2] = a2;
    out[o + j + 3] = a3;
    out[o1 + j] = b0;
    out[o1 + j + 1] = b1;
    out[o1 + j + 2] = b2;
    out[o1 + j + 3] = b3;
  }
  for (; j <= last; j++) {
    const r = j * n;
    let sa = 0;
    let sb = 0;
    for (let i = 0; i < n; i++) {
      const yi = y[r + i];
      sa += x[xa + i] * yi;
      sb += x[xb + i] * yi;
    }
    out[o + j] = sa;
    out[o1 + j] = sb;
  }
}

/**
 * out[a·stride + j] = Σ_i x[a·n + i]·y[j·n + i] for a < rows and j ≤ a (lower = true) or j < cols, two rows
 * of x at a time ({@link rowDotsPair}); bit for bit one {@link rowDots} per row.
 */
function rowDotsRows(x: Float64Array, y: Float64Array, rows: number, cols: number, n: number, out: Float64Array, stride: number, lower: boolean): void {
  let a = 0;
  for (; a + 1 < rows; a += 2) {
    rowDotsPair(x, a * n, y, lower ? a : cols - 1, n, out, a * stride, (a + 1) * stride);
    if (!lower) continue;
    const r = (a + 1) * n;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[r + i] * y[r + i];
    out[(a + 1) * stride + a + 1] = sum;
  }
  if (a < rows) rowDots(x, a * n, y, lower ? a : cols - 1, n, out, a * stride);
}

/**
 * Values and analytic gradients of the sparse-GP objectives Σ_i scale·ℓ_i(μ_i, v_i) + β·R(q) over a
 * minibatch (Hensman et al. 2015; Wei, Sheth & Khardon 2021, eqs. 3, 8). One O(M³) Cholesky of Kuu,
 * then O(BM²) for the B marginals μ = c + Cᵀm, v = s² − colsum(Kuf∘C) + colsum((LᵀC)²), C = Kuu⁻¹Kuf,
 * and the gradients by the adjoints of the reference README §2: ∇m = C g_μ, ∇L = tril(2C diag(g_v)CᵀL),
 * K̄uf, K̄uu, k̄diag for the kernel and Z. The whitened form (m, L of q(v), u = Lk v) evaluates the
 * same objective at (Lk m, Lk L) and chains back, including through the Cholesky (Murray 2016).
 * Buffers are sized for M and grow with the batch, so a steady stream of equal batches allocates nothing.
 */
export class SparseGpEvaluator {
  private capacity = 0;
  private kuf = new Float64Array(0);
  private solved = new Float64Array(0);
  private c = new Float64Array(0);
  private t = new Float64Array(0);
  private dmat = new Float64Array(0);
  /** Latent marginal means μ_i of the last evaluation. */
  mu = new Float64Array(0);
  /** Latent marginal variances v_i of the last evaluation. */
  v = new Float64Array(0);
  private gmu = new Float64Array(0);
  private gv = new Float64Array(0);
  private readonly kuu: Float64Array;
  private readonly kuuJ: Float64Array;
  /** Lower Cholesky factor of Kuu + jitter·I from the last evaluation. */
  readonly lk: Float64Array;
  private readonly mU: Float64Array;
  private readonly lU: Float64Array;
  private readonly gmU: Float64Array;
  private readonly gLU: Float64Array;
  private readonly alpha: Float64Array;
  private readonly gmData: Float64Array;
  private readonly x1: Float64Array;
  private readonly ainv: Float64Array;
  private readonly s: Float64Array;
  private readonly ks: Float64Array;
  private readonly w: Float64Array;
  private readonly ksw: Float64Array;
  private readonly kuuBar: Float64Array;
  private readonly work: Float64Array;
  private readonly point: PointLossGradient = { dm: 0, dv: 0, dLogNoise: 0 };
  /** KL(q(u) ‖ p(u)) (or ½mᵀKuu⁻¹m for the 'mean' regulariser) of the last evaluation. */
  regulariserValue = 0;
  /** Σ_i ℓ_i (unscaled) of the last evaluation. */
  dataValue = 0;

  constructor(readonly M: number, readonly dim: number) {
    const mm = M * M;
    this.kuu = new Float64Array(mm);
    this.kuuJ = new Float64Array(mm);
    this.lk = new Float64Array(mm);
    this.mU = new Float64Array(M);
    this.lU = new Float64Array(mm);
    this.gmU = new Float64Array(M);
    this.gLU = new Float64Array(mm);
    this.alpha = new Float64Array(M);
    this.gmData = new Float64Array(M);
    this.x1 = new Float64Array(mm);
    this.ainv = new Float64Array(mm);
    this.s = new Float64Array(mm);
    this.ks = new Float64Array(mm);
    this.w = new Float64Array(mm);
    this.ksw = new Float64Array(mm);
    this.kuuBar = new Float64Array(mm);
    this.work = new Float64Array(mm);
  }

  private ensure(n: number): void {
    if (n <= this.capacity) return;
    const size = this.M * n;
    this.kuf = new Float64Array(size);
    this.solved = new Float64Array(size);
    this.c = new Float64Array(size);
    this.t = new Float64Array(size);
    this.dmat = new Float64Array(size);
    this.mu = new Float64Array(n);
    this.v = new Float64Array(n);
    this.gmu = new Float64Array(n);
    this.gv = new Float64Array(n);
    this.capacity = n;
  }

  /** Kuu and its jittered Cholesky factor Lk. */
  private factorKuu(p: SparseGpParameters): void {
    const M = this.M;
    p.kernel.cross(p.Z, M, p.Z, M, this.kuu);
    this.kuuJ.set(this.kuu);
    for (let a = 0; a < M; a++) this.kuuJ[a * M + a] += p.jitter;
    cholesky(this.kuuJ, M, this.lk, { what: 'Kuu (inducing-point covariance)' });
  }

  /** Kuu, Lk, and the unwhitened (m, L) of q(u). */
  private prepareInducing(p: SparseGpParameters): void {
    const M = this.M;
    this.factorKuu(p);
    if (!p.whitened) {
      this.mU.set(p.m);
      this.lU.set(p.L);
      return;
    }
    const { lk, lU } = this;
    lU.fill(0);
    for (let a = 0; a < M; a++) {
      let sum = 0;
      for (let b = 0; b <= a; b++) sum += lk[a * M + b] * p.m[b];
      this.mU[a] = sum;
      // row a of Lk·L̃ = Σ_{b ≤ a} Lk[a, b]·(row b of L̃), accumulated along rows in the order of b
      const row = a * M;
      for (let b = 0; b <= a; b++) {
        const f = lk[row + b];
        const source = b * M;
        for (let c = 0; c <= b; c++) lU[row + c] += f * p.L[source + c];
      }
    }
  }

  /** q(u) in the unwhitened form: mean c + m_u into `mean` (M) and covariance L_u L_uᵀ into `cov` (M×M). */
  inducingPosterior(p: SparseGpParameters, mean: Float64Array, cov: Float64Array): void {
    const M = this.M;
    this.prepareInducing(p);
    for (let a = 0; a < M; a++) {
      mean[a] = p.meanConstant + this.mU[a];
      for (let b = 0; b <= a; b++) {
        let sum = 0;
        for (let k = 0; k <= b; k++) sum += this.lU[a * M + k] * this.lU[b * M + k];
        cov[a * M + b] = cov[b * M + a] = sum;
      }
    }
  }

  /** Lower factor L_u of q(u)'s covariance (unwhitened) into `out`, after {@link inducingPosterior} or an evaluation. */
  inducingFactor(out: Float64Array): void {
    out.set(this.lU);
  }

  /**
   * Latent marginals of f at the n rows of x (row-major n×d) into `this.mu`, `this.v` (and C = Kuu⁻¹Kuf,
   * T = LᵀC kept for the gradient). O(M³ + nM²).
   */
  marginals(p: SparseGpParameters, x: Float64Array, n: number): void {
    this.ensure(n);
    this.prepareInducing(p);
    this.computeMarginals(p, x, n);
  }

  /** Kuf and B = Lk⁻¹Kuf (into `solved`), row by row so that the inner loops run over the batch. */
  private solveKuf(p: SparseGpParameters, x: Float64Array, n: number): void {
    const M = this.M;
    const { kuf, solved, lk } = this;
    p.kernel.cross(p.Z, M, x, n, kuf);
    for (let e = 0; e < M * n; e++) solved[e] = kuf[e];
    // Rows a and a + 1 share the full groups of four of sources below a (the grouping of accumulateRows
    // from source 0, so the result is bit for bit row by row); each finishes its own remainder.
    for (let a = 0; a < M; a += 2) {
      const row = a * n;
      const pair = a + 1 < M;
      const shared = pair ? a - (a % 4) : 0;
      if (shared > 0) accumulateRowPair(solved, row, row + n, solved, 0, shared, n, lk, a * M, (a + 1) * M, 1, -1);
      accumulateRows(solved, row, solved, shared, a - shared, n, lk, a * M + shared, 1, -1);
      const inv = 1 / lk[a * M + a];
      for (let i = 0; i < n; i++) solved[row + i] *= inv;
      if (!pair) break;
      const next = row + n;
      accumulateRows(solved, next, solved, shared, a + 1 - shared, n, lk, (a + 1) * M + shared, 1, -1);
      const invNext = 1 / lk[(a + 1) * M + a + 1];
      for (let i = 0; i < n; i++) solved[next + i] *= invNext;
    }
  }

  private computeMarginals(p: SparseGpParameters, x: Float64Array, n: number): void {
    const M = this.M;
    const { solved, c, t, lk, mU, lU, mu, v } = this;
    this.solveKuf(p, x, n);
    for (let a = M - 1; a >= 0; a--) {
      const row = a * n;
      for (let i = 0; i < n; i++) c[row + i] = solved[row + i];
      accumulateRows(c, row, c, a + 1, M - a - 1, n, lk, (a + 1) * M + a, M, -1);
      const inv = 1 / lk[a * M + a];
      for (let i = 0; i < n; i++) c[row + i] *= inv;
    }
    lowerTransposedTimes(t, c, lU, M, n);
    const s2 = p.kernel.variance;
    for (let i = 0; i < n; i++) {
      mu[i] = p.meanConstant;
      v[i] = s2;
    }
    for (let a = 0; a < M; a++) {
      const row = a * n;
      const ma = mU[a];
      for (let i = 0; i < n; i++) {
        mu[i] += c[row + i] * ma;
        v[i] -= solved[row + i] * solved[row + i];
      }
      for (let i = 0; i < n; i++) v[i] += t[row + i] * t[row + i];
    }
    for (let i = 0; i < n; i++) if (!(v[i] > 0)) v[i] = 0;
  }

  /**
   * The objective scale·Σ_i ℓ_i + β·R at the parameters on the batch (x, y, n); with `gradient`, fills
   * it (in the evaluated parameterisation); `hyper` adds the kernel, noise, mean and Z gradients.
   */
  evaluate(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, objective: SparseGpObjective, scale: number,
    gradient?: SparseGpGradient, hyper = false): number {
    this.ensure(n);
    if (p.whitened && !hyper) return this.evaluateWhitened(p, x, y, n, objective, scale, gradient);
    this.prepareInducing(p);
    this.computeMarginals(p, x, n);
    const { mu, v, gmu, gv, point } = this;
    let data = 0;
    let noise = 0;
    for (let i = 0; i < n; i++) {
      data += objective.pointLoss(y[i], mu[i], v[i], i, point);
      gmu[i] = scale * point.dm;
      gv[i] = scale * point.dv;
      noise += point.dLogNoise;
    }
    this.dataValue = data;
    const reg = this.regulariser(p, objective.regulariser === 'kl');
    this.regulariserValue = reg;
    const value = scale * data + p.beta * reg;
    if (gradient === undefined) return value;
    this.variationalGradient(p, n, objective.regulariser === 'kl');
    if (hyper) {
      this.hyperGradient(p, x, n, objective.regulariser === 'kl', gradient);
      gradient.logNoise = scale * noise;
      let gc = 0;
      for (let i = 0; i < n; i++) gc += gmu[i];
      gradient.meanConstant = gc;
    } else {
      gradient.logNoise = 0;
      gradient.meanConstant = 0;
    }
    this.chainToParameters(p, gradient);
    return value;
  }

  /**
   * The whitened objective and its (m̃, L̃) gradient without the back-solve: with B = Lk⁻¹Kuf and T = L̃ᵀB,
   * μ = c + Bᵀm̃, v = s² − colsum(B∘B) + colsum(T∘T), KL = ½(‖L̃‖² + ‖m̃‖² − M − 2Σ log L̃_jj),
   * ∇m̃ = B g_μ + βm̃, ∇L̃ = tril(2B diag(g_v) Tᵀ) + β(L̃ − diag(1/L̃_jj)); the 'mean' regulariser is ½‖m̃‖².
   * Three O(BM²) passes.
   */
  private evaluateWhitened(p: SparseGpParameters, x: Float64Array, y: Float64Array, n: number, objective: SparseGpObjective, scale: number,
    gradient?: SparseGpGradient): number {
    const M = this.M;
    const { solved, t, dmat, mu, v, gmu, gv, point } = this;
    const { m, L } = p;
    this.factorKuu(p);
    this.solveKuf(p, x, n);
    const s2 = p.kernel.variance;
    for (let i = 0; i < n; i++) {
      mu[i] = p.meanConstant;
      v[i] = s2;
    }
    lowerTransposedTimes(t, solved, L, M, n);
    for (let a = 0; a < M; a++) {
      const row = a * n;
      const ma = m[a];
      for (let i = 0; i < n; i++) {
        const b = solved[row + i];
        mu[i] += b * ma;
        v[i] -= b * b;
        v[i] += t[row + i] * t[row + i];
      }
    }
    for (let i = 0; i < n; i++) if (!(v[i] > 0)) v[i] = 0;
    let data = 0;
    for (let i = 0; i < n; i++) {
      data += objective.pointLoss(y[i], mu[i], v[i], i, point);
      gmu[i] = scale * point.dm;
      gv[i] = scale * point.dv;
    }
    this.dataValue = data;
    const kl = objective.regulariser === 'kl';
    let reg = kl ? -M : 0;
    for (let a = 0; a < M; a++) {
      reg += m[a] * m[a];
      if (!kl) continue;
      reg -= 2 * Math.log(L[a * M + a]);
      for (let b = 0; b <= a; b++) reg += L[a * M + b] * L[a * M + b];
    }
    this.regulariserValue = 0.5 * reg;
    const value = scale * data + p.beta * this.regulariserValue;
    if (gradient === undefined) return value;
    for (let a = 0; a < M; a++) {
      const row = a * n;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const b = solved[row + i];
        sum += b * gmu[i];
        dmat[row + i] = b * gv[i];
      }
      gradient.m[a] = sum + p.beta * m[a];
    }
    gradient.L.fill(0);
    if (kl) rowDotsRows(dmat, t, M, M, n, gradient.L, M, true);
    for (let a = 0; kl && a < M; a++) {
      for (let b = 0; b <= a; b++) gradient.L[a * M + b] = 2 * gradient.L[a * M + b] + p.beta * L[a * M + b];
      gradient.L[a * M + a] -= p.beta / L[a * M + a];
    }
    gradient.logNoise = 0;
    gradient.meanConstant = 0;
    return value;
  }

  /** KL(N(m, LLᵀ) ‖ N(0, Kuu)) (eq. 3's regulariser) or ½mᵀKuu⁻¹m; leaves α = Kuu⁻¹m and X1 = Lk⁻¹L. */
  private regulariser(p: SparseGpParameters, kl: boolean): number {
    const M = this.M;
    const { lk, mU, lU, alpha, x1 } = this;
    let quad = 0;
    for (let a = 0; a < M; a++) {
      let sum = mU[a];
      for (let b = 0; b < a; b++) sum -= lk[a * M + b] * alpha[b];
      alpha[a] = sum / lk[a * M + a];
      quad += alpha[a] * alpha[a];
    }
    for (let a = M - 1; a >= 0; a--) {
      let sum = alpha[a];
      for (let b = a + 1; b < M; b++) sum -= lk[b * M + a] * alpha[b];
      alpha[a] = sum / lk[a * M + a];
    }
    if (!kl) return 0.5 * quad;
    // X1 = Lk⁻¹L_u by forward substitution along rows (each entry's arithmetic as column by column)
    x1.fill(0);
    for (let a = 0; a < M; a++) {
      const row = a * M;
      for (let c = 0; c <= a; c++) x1[row + c] = lU[row + c];
      for (let b = 0; b < a; b++) {
        const f = lk[row + b];
        const source = b * M;
        for (let c = 0; c <= b; c++) x1[row + c] -= f * x1[source + c];
      }
      const diagonal = lk[row + a];
      for (let c = 0; c <= a; c++) x1[row + c] /= diagonal;
    }
    let frob = 0;
    let logDet = 0;
    for (let col = 0; col < M; col++) for (let a = 0; a < M; a++) frob += x1[a * M + col] * x1[a * M + col];
    for (let a = 0; a < M; a++) logDet += Math.log(lk[a * M + a]) - Math.log(lU[a * M + a]);
    return 0.5 * (frob + quad - M + 2 * logDet);
  }

  /** ∇ over the unwhitened (m, L) into gmU, gLU; D = C diag(g_v) and C g_μ kept for the hyperparameters. */
  private variationalGradient(p: SparseGpParameters, n: number, kl: boolean): void {
    const M = this.M;
    const { c, t, dmat, gmu, gv, gmU, gLU, gmData, alpha, lk, x1, lU } = this;
    for (let a = 0; a < M; a++) {
      const row = a * n;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        sum += c[row + i] * gmu[i];
        dmat[row + i] = c[row + i] * gv[i];
      }
      gmData[a] = sum;
      gmU[a] = sum + p.beta * alpha[a];
    }
    gLU.fill(0);
    if (!kl) return;
    rowDotsRows(dmat, t, M, M, n, gLU, M, true);
    for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) gLU[a * M + b] *= 2;
    // β(tril(Kuu⁻¹L) − diag(1/L_jj)), Kuu⁻¹L = Lk⁻ᵀ X1
    const work = this.work;
    work.set(x1);
    solveLowerTransposedRows(lk, M, work, M);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) gLU[a * M + b] += p.beta * work[a * M + b];
      gLU[a * M + a] -= p.beta / lU[a * M + a];
    }
  }

  /** Kernel and Z gradients through K̄uf, K̄uu, k̄diag (reference README §2), plus the whitening adjoint. */
  private hyperGradient(p: SparseGpParameters, x: Float64Array, n: number, kl: boolean, gradient: SparseGpGradient): void {
    const M = this.M;
    const { c, dmat, gmu, gv, alpha, gmData, ainv, s, ks, w, kuuBar, lU, lk } = this;
    const kufBar = this.solved;
    choleskyInverse(lk, M, ainv, this.work);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) {
        let sum = 0;
        for (let k = 0; k <= b; k++) sum += lU[a * M + k] * lU[b * M + k];
        s[a * M + b] = sum;
        s[b * M + a] = sum;
      }
    }
    // S, Kuu⁻¹ and W are symmetric, so every M×M product below is rows against rows (rowDots).
    rowDotsRows(ainv, s, M, M, M, ks, M, false);
    for (let a = 0; a < M; a++) {
      const ra = a * n;
      for (let i = 0; i < n; i++) kufBar[ra + i] = alpha[a] * gmu[i] - 2 * dmat[ra + i];
    }
    let a = 0;
    for (; a + 1 < M; a += 2) accumulateRowPair(kufBar, a * n, (a + 1) * n, dmat, 0, M, n, ks, a * M, (a + 1) * M, 1, 2);
    if (a < M) accumulateRows(kufBar, a * n, dmat, 0, M, n, ks, a * M, 1, 2);
    rowDotsRows(c, dmat, M, M, n, w, M, true);
    for (let a = 0; a < M; a++) for (let b = 0; b < a; b++) w[b * M + a] = w[a * M + b];
    const half = 0.5 * p.beta;
    // KsW = Ks·W; W·Ksᵀ is its transpose. Ks·Kuu⁻¹ goes into `work` (free until the whitening adjoint).
    const { ksw, work: ksa } = this;
    rowDotsRows(ks, w, M, M, M, ksw, M, false);
    if (kl) rowDotsRows(ks, ainv, M, M, M, ksa, M, false);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < M; b++) {
        let e = -gmData[a] * alpha[b] + w[a * M + b] - ksw[a * M + b] - ksw[b * M + a] - half * alpha[a] * alpha[b];
        if (kl) e += half * (ainv[a * M + b] - ksa[a * M + b]);
        kuuBar[a * M + b] = e;
      }
    }
    if (p.whitened) this.whiteningAdjoint(p);
    gradient.kernel.fill(0);
    gradient.Z.fill(0);
    p.kernel.accumulateGradient(kufBar, this.kuf, p.Z, M, x, n, gradient.kernel, gradient.Z);
    p.kernel.accumulateGradient(kuuBar, this.kuu, p.Z, M, p.Z, M, gradient.kernel, gradient.Z, true);
    let kdiag = 0;
    for (let i = 0; i < n; i++) kdiag += gv[i];
    gradient.kernel[0] += kdiag * p.kernel.variance;
  }

  /**
   * Adds to K̄uu the path through Lk = chol(Kuu): L̄k = ḡ_m m̃ᵀ + ḠL L̃ᵀ, then
   * K̄uu += sym(Lk⁻ᵀ Φ(LkᵀL̄k) Lk⁻¹), Φ = lower triangle with halved diagonal (Murray 2016, eq. 10).
   */
  private whiteningAdjoint(p: SparseGpParameters): void {
    const M = this.M;
    const { lk, gmU, gLU, kuuBar, work, x1 } = this;
    const lbar = x1;
    for (let a = 0; a < M; a++) {
      for (let b = 0; b <= a; b++) {
        let sum = gmU[a] * p.m[b];
        for (let k = 0; k <= b; k++) sum += gLU[a * M + k] * p.L[b * M + k];
        lbar[a * M + b] = sum;
      }
      for (let b = a + 1; b < M; b++) lbar[a * M + b] = 0;
    }
    // P = Φ(Lkᵀ L̄k) into work, row a = Σ_{k ≥ a} Lk[k, a]·(row k of L̄k) accumulated along rows
    work.fill(0);
    for (let a = 0; a < M; a++) {
      const row = a * M;
      for (let k = a; k < M; k++) {
        const f = lk[k * M + a];
        const source = k * M;
        for (let b = 0; b <= a; b++) work[row + b] += f * lbar[source + b];
      }
      work[row + a] *= 0.5;
    }
    // G = Lk⁻ᵀ P Lk⁻¹: first X = P Lk⁻¹ as Xᵀ = Lk⁻ᵀPᵀ (in `ks`, no longer needed), then Lk⁻ᵀ X.
    const transposed = this.ks;
    for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) transposed[b * M + a] = work[a * M + b];
    solveLowerTransposedRows(lk, M, transposed, M);
    for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) work[a * M + b] = transposed[b * M + a];
    solveLowerTransposedRows(lk, M, work, M);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < M; b++) kuuBar[a * M + b] += 0.5 * (work[a * M + b] + work[b * M + a]);
    }
  }

  /** Writes ∇m, ∇L in the evaluated parameterisation: unwhitened as is, whitened ḡ_m̃ = Lkᵀḡ_m, Ḡ_L̃ = tril(LkᵀḠ_L). */
  private chainToParameters(p: SparseGpParameters, gradient: SparseGpGradient): void {
    const M = this.M;
    if (!p.whitened) {
      gradient.m.set(this.gmU);
      gradient.L.set(this.gLU);
      return;
    }
    const { lk, gmU, gLU } = this;
    const gL = gradient.L;
    gL.fill(0);
    for (let a = 0; a < M; a++) {
      let sum = 0;
      for (let k = a; k < M; k++) sum += lk[k * M + a] * gmU[k];
      gradient.m[a] = sum;
      // row a of tril(LkᵀḠ_L) = Σ_{k ≥ a} Lk[k, a]·(row k of Ḡ_L) on b ≤ a, accumulated along rows in the order of k
      const row = a * M;
      for (let k = a; k < M; k++) {
        const f = lk[k * M + a];
        const source = k * M;
        for (let b = 0; b <= a; b++) gL[row + b] += f * gLU[source + b];
      }
    }
  }
}
