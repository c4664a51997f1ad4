import type { DirectBnnShape, DirectBnnStatistics } from './bnn-state.js';
import { softmaxRows } from './softmax-rows.js';
import { NoiseTerms } from './noise-terms.js';
import type { DirectGrid } from './state.js';

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/**
 * The map from each full index (i, j, k, l) ∈ [0, D)⁴ to the packed index of its sorted tuple (the
 * layout of `DirectBnnStatistics.fourth`).
 */
function packedIndexOfFull(D: number): Int32Array {
  const sortedToPacked = new Int32Array(D ** 4).fill(-1);
  let p = 0;
  for (let i = 0; i < D; i++) for (let j = i; j < D; j++) for (let k = j; k < D; k++) for (let l = k; l < D; l++) sortedToPacked[((i * D + j) * D + k) * D + l] = p++;
  const map = new Int32Array(D ** 4);
  const t = [0, 0, 0, 0];
  for (let f = 0; f < D ** 4; f++) {
    t[0] = Math.floor(f / (D * D * D)); t[1] = Math.floor(f / (D * D)) % D; t[2] = Math.floor(f / D) % D; t[3] = f % D;
    t.sort((a, c) => a - c);
    map[f] = sortedToPacked[((t[0] * D + t[1]) * D + t[2]) * D + t[3]];
  }
  return map;
}

/**
 * The exact mean-field ELBO of a DIRECT Bayesian neural network with one quadratic hidden layer
 * (Evans & Nair §3.2, appendix D), f(x) = Σ_h v_h (u_hᵀx̃)² + c with x̃ = (x, 1), discrete q on every
 * weight and on σ², and its exact gradient in the softmax logits (b·m̄ weight logits, then K noise
 * logits). As eq. (34) with the −n/2·log 2π it omits (so the value never exceeds log p(y)):
 *
 *   ELBO = −n/2 (q_σᵀlog σ² + log 2π) − ½ (q_σᵀσ⁻²) R + Σ_j q_jᵀ(log p_j − log q_j) + q_σᵀ(log p_σ − log q_σ),
 *
 * where R = E_q Σ_n (y_n − f(x_n))² is eq. (35): yᵀy − 2 Σ_n y_n E f_n (eq. 36) + Σ_n E f_n² (eq. 37–39).
 * The paper's eq. (36)/(39) sum over the Kronecker terms of the forward pass; for one quadratic layer
 * they reduce to moments of the independent weights contracted with the data tensors T and S
 * (`DirectBnnStatistics`). With a_h = u_hᵀx̃, M_h = E[u_h u_hᵀ] = μ_hμ_hᵀ + diag(s_h) (μ, s the means
 * and variances of q(u_h·)), ν_h = E v_h, γ = E c, G = T[·,·,D,D], n = T_DDDD:
 *
 *   Σ_n y_n E f_n = Σ_h ν_h ⟨S, M_h⟩ + γ S_DD,
 *   Σ_n E f_n² = Σ_h E[v_h²] F_h + Σ_{h≠k} ν_h ν_k ⟨T, M_h ⊗ M_k⟩ + 2γ Σ_h ν_h ⟨G, M_h⟩ + n E[c²],
 *   F_h = Σ_n E a_h⁴ = T[μ,μ,μ,μ] + 6 Σ_i s_i T[μ,μ,i,i] + 4 Σ_i c3_i T[μ,i,i,i] + 3 Σ_ij s_i s_j T[i,i,j,j] + Σ_i κ4_i T[i,i,i,i],
 *
 * (c3, κ4: third central moments and fourth cumulants of q(u_hi); the expansion of E(μᵀx̃ + e)⁴ with
 * independent centred terms). The gradient is taken in the raw moments E[w^r] (r ≤ 4) of each
 * weight, which are linear in q_j, so ∂/∂q_j(w̄) is a polynomial in w̄. Each evaluation costs
 * O(H·D⁴ + H²·D² + b·m̄ + K), independent of n, and allocates nothing.
 */
export class DirectBnnElbo {
  /** Number of parameters b·m̄ + K. */
  readonly size: number;
  /** q_j (b×m̄) and q_σ (K) at the last evaluation. */
  readonly q: Float64Array;
  readonly logQ: Float64Array;
  readonly noiseQ: Float64Array;
  readonly logNoiseQ: Float64Array;
  /** Raw moments E_q[w_j^r], r = 1..4, at the last evaluation: 4 blocks of b (block r−1 = order r). */
  readonly moments: Float64Array;
  /** R, E_q[σ⁻²], E_q[σ²] and E_q[log p(y | w, σ²)] at the last evaluation. */
  expectedSquaredResidual = 0;
  expectedInverseNoise = 0;
  expectedNoise = 0;
  expectedLogLikelihood = 0;
  /** n = Σ w_n at the last evaluation. */
  count = 0;

  private readonly packedOf: Int32Array;
  private readonly T: Float64Array;
  private readonly G: Float64Array;
  private readonly S: Float64Array;
  private readonly B: Float64Array;
  private readonly C: Float64Array;
  private readonly diag4: Float64Array;
  private readonly T1: Float64Array;
  private readonly P: Float64Array;
  private readonly A: Float64Array;
  private readonly M: Float64Array;
  private readonly p: Float64Array;
  private readonly Y: Float64Array;
  private readonly sv: Float64Array;
  private readonly c3: Float64Array;
  private readonly k4: Float64Array;
  private readonly F: Float64Array;
  private readonly aG: Float64Array;
  private readonly aS: Float64Array;
  private readonly Abar: Float64Array;
  private readonly W: Float64Array;
  private readonly gm: Float64Array;
  private readonly noise: NoiseTerms;

  constructor(readonly shape: DirectBnnShape, readonly grid: DirectGrid, readonly stats: DirectBnnStatistics) {
    const { D, H, b } = shape;
    const { mbar, K } = grid;
    this.size = b * mbar + K;
    this.q = new Float64Array(b * mbar);
    this.logQ = new Float64Array(b * mbar);
    this.noiseQ = new Float64Array(K);
    this.logNoiseQ = new Float64Array(K);
    this.moments = new Float64Array(4 * b);
    this.packedOf = packedIndexOfFull(D);
    this.T = new Float64Array(D ** 4);
    this.G = new Float64Array(D * D);
    this.S = new Float64Array(D * D);
    this.B = new Float64Array(D * D);
    this.C = new Float64Array(D * D);
    this.diag4 = new Float64Array(D);
    this.T1 = new Float64Array(D ** 3);
    this.P = new Float64Array(H * D * D);
    this.A = new Float64Array(H * D * D);
    this.M = new Float64Array(H * D * D);
    this.p = new Float64Array(H * D);
    this.Y = new Float64Array(H * D);
    this.sv = new Float64Array(H * D);
    this.c3 = new Float64Array(H * D);
    this.k4 = new Float64Array(H * D);
    this.F = new Float64Array(H);
    this.aG = new Float64Array(H);
    this.aS = new Float64Array(H);
    this.Abar = new Float64Array(D * D);
    this.W = new Float64Array(D * D);
    this.gm = new Float64Array(4 * b);
    this.noise = new NoiseTerms(grid);
  }

  /** Unpacks the statistics: the full tensor T, G = T[·,·,D,D], S, B_ij = T_iijj, C_ji = T_jiii, T_iiii. */
  private unpack(): void {
    const { D } = this.shape;
    const { T, G, S, B, C, diag4, packedOf } = this;
    const fourth = this.stats.fourth;
    for (let f = 0; f < T.length; f++) T[f] = fourth[packedOf[f]];
    const crossY = this.stats.crossY;
    let s = 0;
    for (let i = 0; i < D; i++) for (let j = i; j < D; j++) { S[i * D + j] = crossY[s]; S[j * D + i] = crossY[s]; s++; }
    const last = D - 1;
    for (let i = 0; i < D; i++) {
      diag4[i] = T[((i * D + i) * D + i) * D + i];
      for (let j = 0; j < D; j++) {
        G[i * D + j] = T[((i * D + j) * D + last) * D + last];
        B[i * D + j] = T[((i * D + i) * D + j) * D + j];
        C[j * D + i] = T[((j * D + i) * D + i) * D + i];
      }
    }
  }

  /** The ELBO at `logits`; when `gradient` is given, writes ∂ELBO/∂logits into it. */
  evaluate(logits: Float64Array, gradient?: Float64Array): number {
    const { D, H, b } = this.shape;
    const { mbar, K, support, logPrior } = this.grid;
    const { q, logQ, noiseQ, logNoiseQ, moments, T, G, S, B, C, diag4, T1, P, A, M, p, Y, sv, c3, k4, F, aG, aS, Abar } = this;
    this.unpack();
    softmaxRows(logits, 0, b, mbar, q, logQ);
    softmaxRows(logits, b * mbar, 1, K, noiseQ, logNoiseQ);
    let klWeights = 0;
    for (let j = 0; j < b; j++) {
      let m1 = 0;
      let m2 = 0;
      let m3 = 0;
      let m4 = 0;
      for (let m = 0; m < mbar; m++) {
        const i = j * mbar + m;
        const w = support[i];
        const qw = q[i];
        m1 += qw * w; m2 += qw * w * w; m3 += qw * w * w * w; m4 += qw * w * w * w * w;
        klWeights += qw * (logPrior[i] - logQ[i]);
      }
      moments[j] = m1; moments[b + j] = m2; moments[2 * b + j] = m3; moments[3 * b + j] = m4;
    }
    const D2 = D * D;
    const D3 = D2 * D;
    Abar.fill(0);
    for (let h = 0; h < H; h++) {
      const u = h * D;
      for (let i = 0; i < D; i++) {
        const m1 = moments[u + i];
        const m2 = moments[b + u + i];
        const m3 = moments[2 * b + u + i];
        const m4 = moments[3 * b + u + i];
        sv[u + i] = m2 - m1 * m1;
        c3[u + i] = m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1;
        k4[u + i] = m4 - 4 * m1 * m3 - 3 * m2 * m2 + 12 * m1 * m1 * m2 - 6 * m1 * m1 * m1 * m1;
      }
      for (let f = 0; f < D3; f++) {
        let t = 0;
        for (let l = 0; l < D; l++) t += T[f * D + l] * moments[u + l];
        T1[f] = t;
      }
      const o = h * D2;
      for (let ij = 0; ij < D2; ij++) {
        let t = 0;
        for (let k = 0; k < D; k++) t += T1[ij * D + k] * moments[u + k];
        P[o + ij] = t;
      }
      let fourthMoment = 0;
      for (let i = 0; i < D; i++) {
        let pi = 0;
        for (let j = 0; j < D; j++) pi += P[o + i * D + j] * moments[u + j];
        p[u + i] = pi;
        let yi = 0;
        for (let k = 0; k < D; k++) yi += sv[u + k] * T1[(i * D + k) * D + k];
        Y[u + i] = yi;
        let cmu = 0;
        let bs = 0;
        for (let j = 0; j < D; j++) { cmu += moments[u + j] * C[j * D + i]; bs += B[i * D + j] * sv[u + j]; }
        fourthMoment += moments[u + i] * pi + 6 * sv[u + i] * P[o + i * D + i] + 4 * c3[u + i] * cmu + 3 * sv[u + i] * bs + k4[u + i] * diag4[i];
      }
      F[h] = fourthMoment;
      let eg = 0;
      let es = 0;
      for (let i = 0; i < D; i++) {
        for (let j = 0; j < D; j++) {
          const ij = i * D + j;
          let t = P[o + ij];
          for (let k = 0; k < D; k++) t += sv[u + k] * T[(ij * D + k) * D + k];
          A[o + ij] = t;
          const mij = moments[u + i] * moments[u + j] + (i === j ? sv[u + i] : 0);
          M[o + ij] = mij;
          eg += G[ij] * mij;
          es += S[ij] * mij;
        }
      }
      aG[h] = eg;
      aS[h] = es;
      const nu = moments[H * D + h];
      for (let ij = 0; ij < D2; ij++) Abar[ij] += nu * A[o + ij];
    }
    const n = T[D ** 4 - 1];
    const sy = S[D2 - 1];
    const gamma = moments[b - 1];
    const gamma2 = moments[2 * b - 1];
    let r = this.stats.yty - 2 * gamma * sy + n * gamma2;
    for (let h = 0; h < H; h++) {
      const nu = moments[H * D + h];
      const o = h * D2;
      let mz = 0;
      for (let ij = 0; ij < D2; ij++) mz += M[o + ij] * (Abar[ij] - nu * A[o + ij]);
      r += -2 * nu * aS[h] + moments[b + H * D + h] * F[h] + nu * mz + 2 * gamma * nu * aG[h];
    }
    const { noise } = this;
    noise.evaluate(noiseQ, logNoiseQ);
    const { expectedInverse: einv, expected: enoise, expectedLog: elog, kl: klNoise } = noise;
    this.count = n;
    this.expectedSquaredResidual = r;
    this.expectedInverseNoise = einv;
    this.expectedNoise = enoise;
    this.expectedLogLikelihood = -n * (0.5 * elog + HALF_LOG_2PI) - 0.5 * einv * r;
    if (gradient !== undefined) this.gradient(gradient, r, n, sy);
    return this.expectedLogLikelihood + klWeights + klNoise;
  }

  /** ∂ELBO/∂logits at the point just evaluated: ∂R/∂ raw moments, then per atom, then through the softmax. */
  private gradient(gradient: Float64Array, r: number, n: number, sy: number): void {
    const { D, H, b } = this.shape;
    const { mbar, support, logPrior } = this.grid;
    const { q, logQ, noiseQ, logNoiseQ, moments, G, S, B, C, diag4, P, A, M, p, Y, sv, c3, F, aG, aS, Abar, W, gm } = this;
    const D2 = D * D;
    const gamma = moments[b - 1];
    gm.fill(0);
    let gGamma = -2 * sy;
    for (let h = 0; h < H; h++) {
      const u = h * D;
      const nu = moments[H * D + h];
      const nu2 = moments[b + H * D + h];
      const o = h * D2;
      let mz = 0;
      for (let ij = 0; ij < D2; ij++) {
        const z = Abar[ij] - nu * A[o + ij];
        mz += M[o + ij] * z;
        W[ij] = nu * (2 * z - 2 * S[ij] + 2 * gamma * G[ij]);
      }
      gm[H * D + h] = -2 * aS[h] + 2 * mz + 2 * gamma * aG[h];
      gm[b + H * D + h] = F[h];
      gGamma += 2 * nu * aG[h];
      for (let i = 0; i < D; i++) {
        let wmu = 0;
        let cc3 = 0;
        let cmu = 0;
        let bs = 0;
        for (let j = 0; j < D; j++) {
          wmu += W[i * D + j] * moments[u + j];
          cc3 += C[i * D + j] * c3[u + j];
          cmu += moments[u + j] * C[j * D + i];
          bs += B[i * D + j] * sv[u + j];
        }
        const gMu = nu2 * (4 * p[u + i] + 12 * Y[u + i] + 4 * cc3) + 2 * wmu;
        const gS = nu2 * (6 * P[o + i * D + i] + 6 * bs) + W[i * D + i];
        const gC3 = 4 * nu2 * cmu;
        const gK4 = nu2 * diag4[i];
        const m1 = moments[u + i];
        const m2 = moments[b + u + i];
        const m3 = moments[2 * b + u + i];
        gm[u + i] = gMu - 2 * m1 * gS + (6 * m1 * m1 - 3 * m2) * gC3 + (24 * m1 * m2 - 4 * m3 - 24 * m1 * m1 * m1) * gK4;
        gm[b + u + i] = gS - 3 * m1 * gC3 + (12 * m1 * m1 - 6 * m2) * gK4;
        gm[2 * b + u + i] = gC3 - 4 * m1 * gK4;
        gm[3 * b + u + i] = gK4;
      }
    }
    gm[b - 1] = gGamma;
    gm[2 * b - 1] = n;
    const einv = this.expectedInverseNoise;
    for (let j = 0; j < b; j++) {
      let avg = 0;
      for (let m = 0; m < mbar; m++) {
        const i = j * mbar + m;
        const w = support[i];
        const dR = w * (gm[j] + w * (gm[b + j] + w * (gm[2 * b + j] + w * gm[3 * b + j])));
        const g = -0.5 * einv * dR + logPrior[i] - logQ[i];
        gradient[i] = g;
        avg += q[i] * g;
      }
      for (let m = 0; m < mbar; m++) {
        const i = j * mbar + m;
        gradient[i] = q[i] * (gradient[i] - avg);
      }
    }
    this.noise.logitGradient(noiseQ, logNoiseQ, n, r, gradient, b * mbar);
  }
}
