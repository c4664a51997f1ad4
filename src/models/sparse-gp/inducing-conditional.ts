import { cholesky } from '../../linalg/cholesky.js';
import { gemmNnAccumulate } from '../../linalg/gemm-nn-accumulate.js';
import { gemmNt } from '../../linalg/gemm-nt.js';
import { lowerTransposedTimesTiled } from '../../linalg/lower-transposed-times-tiled.js';
import { solveLowerRows } from '../../linalg/solve-lower-rows.js';
import { solveLowerTransposedTiled } from '../../linalg/solve-lower-transposed-tiled.js';
import type { SparseGpGradient, SparseGpParameters } from './sparse-gp-parameters.js';

/**
 * The inducing-point conditional of a sparse GP (GPyTorch's variational strategy; Hensman et al.
 * 2015): q(f) at a batch from q(u) = N(c + m_u, L_u L_uᵀ) and p(f | u), with its adjoint. One O(M³)
 * Cholesky of Kuu, then O(BM²) for the B marginals μ = c + Cᵀm_u, v = s² − colsum(Kuf∘C) + colsum((L_uᵀC)²),
 * C = Kuu⁻¹Kuf (Wei, Sheth & Khardon 2021, eq. 2), and backwards, from ∂/∂μ and ∂/∂v of a data term,
 * the (m, L) gradient and K̄uf, K̄uu, k̄diag for the kernel and Z (the reference README §2).
 * Everything runs in whitened terms (q(v) = N(m̃, L̃L̃ᵀ), u = Lk v; Murray 2016): C is never formed, with
 * B = Lk⁻¹Kuf, Cᵀm_u = Bᵀm̃ and L_uᵀC = L̃ᵀB, where (m̃, L̃) are the parameters when whitened and
 * (Lk⁻¹m_u, Lk⁻¹L_u) otherwise (the gradient then chained back). Four register-tiled O(BM²) passes
 * with the hyperparameters (B, L̃ᵀB, B diag(g_v) Bᵀ, the K̄uf product), three without.
 * Buffers are sized for M and grow with the batch, so a steady stream of equal batches allocates nothing.
 */
export class InducingConditional {
  private capacity = 0;
  private kuf = new Float64Array(0);
  private solved = new Float64Array(0);
  private t = new Float64Array(0);
  private dmat = new Float64Array(0);
  /** Latent marginal means μ_i of the last evaluation. */
  mu = new Float64Array(0);
  /** Latent marginal variances v_i of the last evaluation. */
  v = new Float64Array(0);
  private readonly kuu: Float64Array;
  private readonly kuuJ: Float64Array;
  /** Lower Cholesky factor of Kuu + jitter·I from the last evaluation. */
  readonly lk: Float64Array;
  /** Mean m_u of q(u) relative to the prior mean, unwhitened (after {@link inducingPosterior}). */
  private readonly mU: Float64Array;
  /** Lower factor L_u of the covariance of q(u), unwhitened (after {@link inducingPosterior}). */
  private readonly lU: Float64Array;
  private readonly meanSolve: Float64Array;
  private readonly alpha: Float64Array;
  /** K̄uu (after {@link choleskyAdjoint}). */
  private readonly kuuBar: Float64Array;
  private readonly w: Float64Array;
  private readonly lbar: Float64Array;
  private readonly work: Float64Array;
  private readonly transposed: Float64Array;
  private readonly lhat: Float64Array;
  private readonly scratch: Float64Array;
  private readonly kufFactor: Float64Array;
  private readonly gB: Float64Array;

  constructor(readonly M: number, readonly dim: number) {
    const mm = M * M;
    this.kuu = new Float64Array(mm);
    this.kuuJ = new Float64Array(mm);
    this.lk = new Float64Array(mm);
    this.mU = new Float64Array(M);
    this.lU = new Float64Array(mm);
    this.meanSolve = new Float64Array(M);
    this.alpha = new Float64Array(M);
    this.kuuBar = new Float64Array(mm);
    this.w = new Float64Array(mm);
    this.lbar = new Float64Array(mm);
    this.work = new Float64Array(mm);
    this.transposed = new Float64Array(mm);
    this.lhat = new Float64Array(mm);
    this.scratch = new Float64Array(mm);
    this.kufFactor = new Float64Array(mm);
    this.gB = new Float64Array(M);
  }

  private ensure(n: number): void {
    if (n <= this.capacity) return;
    const size = this.M * n;
    this.kuf = new Float64Array(size);
    this.solved = new Float64Array(size);
    this.t = new Float64Array(size);
    this.dmat = new Float64Array(size);
    this.mu = new Float64Array(n);
    this.v = new Float64Array(n);
    this.capacity = n;
  }

  /** Kuu and its jittered Cholesky factor Lk. */
  factorKuu(p: SparseGpParameters): void {
    const M = this.M;
    p.kernel.cross(p.Z, M, p.Z, M, this.kuu);
    this.kuuJ.set(this.kuu);
    for (let a = 0; a < M; a++) this.kuuJ[a * M + a] += p.jitter;
    cholesky(this.kuuJ, M, this.lk, { what: 'Kuu (inducing-point covariance)' });
  }

  /** Kuu, Lk, and the unwhitened (m_u, L_u) of q(u). */
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

  /** Lower factor L_u of q(u)'s covariance (unwhitened) into `out`, after {@link inducingPosterior}. */
  inducingFactor(out: Float64Array): void {
    out.set(this.lU);
  }

  /** μ = c + Bᵀm̃, T = L̃ᵀB and v = s² − colsum(B∘B) + colsum(T∘T) from B in `solved`. */
  private finishMarginals(p: SparseGpParameters, mTilde: Float64Array, lTilde: Float64Array, n: number): void {
    const M = this.M;
    const { solved, t, mu, v } = this;
    lowerTransposedTimesTiled(t, solved, lTilde, M, n);
    const s2 = p.kernel.variance;
    for (let i = 0; i < n; i++) {
      mu[i] = p.meanConstant;
      v[i] = s2;
    }
    // four rows of B and T per pass over the batch, each μ_i and v_i still updated in the order of a
    let a = 0;
    for (; a + 3 < M; a += 4) {
      const r0 = a * n;
      const r1 = r0 + n;
      const r2 = r1 + n;
      const r3 = r2 + n;
      const m0 = mTilde[a];
      const m1 = mTilde[a + 1];
      const m2 = mTilde[a + 2];
      const m3 = mTilde[a + 3];
      for (let i = 0; i < n; i++) {
        const b0 = solved[r0 + i];
        const b1 = solved[r1 + i];
        const b2 = solved[r2 + i];
        const b3 = solved[r3 + i];
        const t0 = t[r0 + i];
        const t1 = t[r1 + i];
        const t2 = t[r2 + i];
        const t3 = t[r3 + i];
        mu[i] = mu[i] + b0 * m0 + b1 * m1 + b2 * m2 + b3 * m3;
        v[i] = v[i] - b0 * b0 + t0 * t0 - b1 * b1 + t1 * t1 - b2 * b2 + t2 * t2 - b3 * b3 + t3 * t3;
      }
    }
    for (; a < M; a++) {
      const row = a * n;
      const ma = mTilde[a];
      for (let i = 0; i < n; i++) {
        const b = solved[row + i];
        mu[i] += b * ma;
        v[i] -= b * b;
        v[i] += t[row + i] * t[row + i];
      }
    }
    for (let i = 0; i < n; i++) if (!(v[i] > 0)) v[i] = 0;
  }

  /**
   * Latent marginals of f at the n rows of x (row-major n×d) into `mu`, `v`, in whitened terms: with
   * B = Lk⁻¹Kuf and T = L̃ᵀB, μ = c + Bᵀm̃ and v = s² − colsum(B∘B) + colsum(T∘T), at (m̃, L̃) = (m, L) for
   * whitened parameters and (Lk⁻¹m_u, Lk⁻¹L_u) for unwhitened ones; B and T are kept for the adjoint.
   * O(M³ + nM²).
   */
  marginals(p: SparseGpParameters, x: Float64Array, n: number): void {
    this.ensure(n);
    this.factorKuu(p);
    this.solveKuf(p, x, n);
    if (!p.whitened) {
      const { lk, meanSolve, lhat } = this;
      const M = this.M;
      for (let a = 0; a < M; a++) {
        let sum = p.m[a];
        for (let b = 0; b < a; b++) sum -= lk[a * M + b] * meanSolve[b];
        meanSolve[a] = sum / lk[a * M + a];
      }
      lhat.set(p.L);
      solveLowerRows(lk, M, lhat, M, 'lower');
    }
    this.finishMarginals(p, this.whitenedMean(p), this.whitenedFactor(p), n);
  }

  /** m̃ of the last {@link marginals}: m for whitened parameters, Lk⁻¹m_u otherwise. */
  whitenedMean(p: SparseGpParameters): Float64Array {
    return p.whitened ? p.m : this.meanSolve;
  }

  /** L̃ of the last {@link marginals}: L for whitened parameters, Lk⁻¹L_u otherwise. */
  whitenedFactor(p: SparseGpParameters): Float64Array {
    return p.whitened ? p.L : this.lhat;
  }

  /** Kuf and B = Lk⁻¹Kuf (into `solved`) by the blocked, register-tiled solve along rows. */
  private solveKuf(p: SparseGpParameters, x: Float64Array, n: number): void {
    const M = this.M;
    const { kuf, solved } = this;
    p.kernel.cross(p.Z, M, x, n, kuf);
    solved.set(kuf.subarray(0, M * n));
    solveLowerRows(this.lk, M, solved, n);
  }

  /**
   * The adjoint without the hyperparameters (after {@link marginals}), straight into the gradient in whitened
   * terms: ∇m̃ = B g_μ and, with `covariance`, ∇L̃ = tril(2B diag(g_v) Tᵀ) (else 0).
   */
  whitenedBackward(gmu: Float64Array, gv: Float64Array, n: number, covariance: boolean, gradient: SparseGpGradient): void {
    const M = this.M;
    const { solved, t, dmat } = this;
    for (let a = 0; a < M; a++) {
      const row = a * n;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const b = solved[row + i];
        sum += b * gmu[i];
        dmat[row + i] = b * gv[i];
      }
      gradient.m[a] = sum;
    }
    gradient.L.fill(0);
    if (!covariance) return;
    gemmNt(gradient.L, M, dmat, t, M, M, n, true);
    for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) gradient.L[a * M + b] = 2 * gradient.L[a * M + b];
  }

  /**
   * The whitened adjoint with the hyperparameters, after {@link marginals} (Murray 2016; no
   * unwhitened detour): ∇m̃ = B g_μ and ∇L̃ = tril(2W̃L̃) (0 without `covariance`), W̃ = D̃Bᵀ, D̃ = B diag(g_v),
   * into the gradient; from B̄ = m̃g_μᵀ + 2(L̃L̃ᵀ − I)D̃, K̄uf = Lk⁻ᵀB̄ = α g_μᵀ + R D̃ (into T's buffer),
   * R = 2Lk⁻ᵀ(L̃L̃ᵀ − I), α = Lk⁻ᵀm̃, and through B = Lk⁻¹Kuf, L̄k = −tril(Lk⁻ᵀB̄Bᵀ) = −tril(α(Bg_μ)ᵀ + RW̃),
   * which the Cholesky adjoint turns into K̄uu (into {@link kuuBar}). O(nM²) in three passes, then O(M³).
   */
  whitenedHyperBackward(p: SparseGpParameters, gmu: Float64Array, gv: Float64Array, n: number, covariance: boolean, gradient: SparseGpGradient): void {
    const M = this.M;
    const mTilde = this.whitenedMean(p);
    const lTilde = this.whitenedFactor(p);
    const { solved, dmat, gB, w, lk, alpha, work, lbar, kufFactor, scratch } = this;
    // K̄uf goes into T's buffer (T is not needed again), starting from αg_μᵀ
    const kufBar = this.t;
    for (let a = M - 1; a >= 0; a--) {
      let sum = mTilde[a];
      for (let b = a + 1; b < M; b++) sum -= lk[b * M + a] * alpha[b];
      alpha[a] = sum / lk[a * M + a];
    }
    // two rows per pass over the batch (two independent sums, g_μ and g_v loaded once)
    let a = 0;
    for (; a + 1 < M; a += 2) {
      const r0 = a * n;
      const r1 = r0 + n;
      const alpha0 = alpha[a];
      const alpha1 = alpha[a + 1];
      let sum0 = 0;
      let sum1 = 0;
      for (let i = 0; i < n; i++) {
        const b0 = solved[r0 + i];
        const b1 = solved[r1 + i];
        const g = gmu[i];
        const h = gv[i];
        sum0 += b0 * g;
        sum1 += b1 * g;
        dmat[r0 + i] = b0 * h;
        dmat[r1 + i] = b1 * h;
        kufBar[r0 + i] = alpha0 * g;
        kufBar[r1 + i] = alpha1 * g;
      }
      gB[a] = sum0;
      gB[a + 1] = sum1;
    }
    if (a < M) {
      const row = a * n;
      const alphaA = alpha[a];
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const b = solved[row + i];
        const g = gmu[i];
        sum += b * g;
        dmat[row + i] = b * gv[i];
        kufBar[row + i] = alphaA * g;
      }
      gB[a] = sum;
    }
    gradient.m.set(gB);
    gemmNt(w, M, dmat, solved, M, M, n, true);
    for (let a = 0; a < M; a++) for (let b = 0; b < a; b++) w[b * M + a] = w[a * M + b];
    gradient.L.fill(0);
    if (covariance) {
      // row b of L̃ᵀ against row a of W̃
      for (let b = 0; b < M; b++) for (let k = 0; k < M; k++) scratch[b * M + k] = lTilde[k * M + b];
      gemmNt(gradient.L, M, w, scratch, M, M, M, true, 'upper');
      for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) gradient.L[a * M + b] *= 2;
    }
    gemmNt(work, M, lTilde, lTilde, M, M, M, true, 'lower');
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < a; b++) work[b * M + a] = work[a * M + b];
      work[a * M + a] -= 1;
    }
    solveLowerTransposedTiled(lk, M, work, M);
    for (let e = 0; e < M * M; e++) kufFactor[e] = 2 * work[e];
    gemmNnAccumulate(kufBar, 0, kufFactor, 0, M, dmat, 0, M, M, n);
    // RW̃ on the lower triangle (rows of R against rows of the symmetric W̃)
    lbar.fill(0);
    gemmNt(lbar, M, kufFactor, w, M, M, M, true);
    for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) lbar[a * M + b] = -(lbar[a * M + b] + alpha[a] * gB[b]);
  }

  /**
   * For unwhitened parameters, after the regulariser's whitened gradient is in: chains ḡ_m̃, Ḡ_L̃ (in the
   * gradient) through m̃ = Lk⁻¹m_u, L̃ = Lk⁻¹L_u to ∇m_u = Lk⁻ᵀḡ_m̃, ∇L_u = tril(Lk⁻ᵀḠ_L̃) in place and, with
   * `hyper` (after {@link whitenedHyperBackward}), adds −tril(Lk⁻ᵀ(ḡ_m̃m̃ᵀ + Ḡ_L̃L̃ᵀ)) to L̄k.
   */
  unwhitenGradient(gradient: SparseGpGradient, hyper: boolean): void {
    const M = this.M;
    const { lk, lbar, work, meanSolve, lhat } = this;
    const gm = gradient.m;
    const gL = gradient.L;
    if (hyper) {
      // only the lower triangle of Lk⁻ᵀ(…) is kept, and it needs only the lower triangle of (…)
      gemmNt(work, M, gL, lhat, M, M, M, true, 'lower');
      for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) work[a * M + b] += gm[a] * meanSolve[b];
      solveLowerTransposedTiled(lk, M, work, M, 'lower');
      for (let a = 0; a < M; a++) for (let b = 0; b <= a; b++) lbar[a * M + b] -= work[a * M + b];
    }
    for (let a = M - 1; a >= 0; a--) {
      let sum = gm[a];
      for (let b = a + 1; b < M; b++) sum -= lk[b * M + a] * gm[b];
      gm[a] = sum / lk[a * M + a];
    }
    solveLowerTransposedTiled(lk, M, gL, M, 'lower');
    for (let a = 0; a < M; a++) for (let b = a + 1; b < M; b++) gL[a * M + b] = 0;
  }

  /**
   * K̄uu = sym(Lk⁻ᵀ Φ(LkᵀL̄k) Lk⁻¹) (into {@link kuuBar}) for the lower L̄k of {@link whitenedHyperBackward}
   * (and {@link unwhitenGradient}), Φ = lower triangle with halved diagonal (Murray 2016, eq. 10): the
   * adjoint of Kuu through its Cholesky factor.
   */
  choleskyAdjoint(): void {
    const M = this.M;
    const { lk, kuuBar, work, lbar } = this;
    kuuBar.fill(0);
    // P = Φ(Lkᵀ L̄k) into work
    lowerTransposedTimesTiled(work, lbar, lk, M, M, 'lower');
    for (let a = 0; a < M; a++) {
      work[a * M + a] *= 0.5;
      for (let b = a + 1; b < M; b++) work[a * M + b] = 0;
    }
    // G = Lk⁻ᵀ P Lk⁻¹: first X = P Lk⁻¹ as Xᵀ = Lk⁻ᵀPᵀ (upper triangular, as Pᵀ is), then Lk⁻ᵀ X.
    const transposed = this.transposed;
    for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) transposed[b * M + a] = work[a * M + b];
    solveLowerTransposedTiled(lk, M, transposed, M, 'upper');
    for (let a = 0; a < M; a++) for (let b = 0; b < M; b++) work[a * M + b] = transposed[b * M + a];
    solveLowerTransposedTiled(lk, M, work, M);
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < M; b++) kuuBar[a * M + b] += 0.5 * (work[a * M + b] + work[b * M + a]);
    }
  }

  /** The kernel and Z gradients from K̄uf (in T's buffer), K̄uu and k̄diag = Σ g_v (after {@link whitenedHyperBackward} and {@link choleskyAdjoint}). */
  kernelGradient(p: SparseGpParameters, x: Float64Array, n: number, gv: Float64Array, gradient: SparseGpGradient): void {
    const M = this.M;
    gradient.kernel.fill(0);
    gradient.Z.fill(0);
    p.kernel.accumulateGradient(this.t, this.kuf, p.Z, M, x, n, gradient.kernel, gradient.Z);
    p.kernel.accumulateGradient(this.kuuBar, this.kuu, p.Z, M, p.Z, M, gradient.kernel, gradient.Z, true);
    let kdiag = 0;
    for (let i = 0; i < n; i++) kdiag += gv[i];
    gradient.kernel[0] += kdiag * p.kernel.variance;
  }
}
