/**
 * Squared-exponential (RBF) kernel k(x, x') = s²·exp(−½ Σ_d (x_d − x'_d)²/ℓ_d²), isotropic (one ℓ)
 * or ARD (one ℓ per input dimension), log-parameterised: `params` = [log s², log ℓ_1, …].
 * Differences are taken directly, never through |x|² − 2x·x' + |x'|² (which loses digits).
 * Gradients are accumulated from an adjoint K̄ of a kernel matrix: Σ K̄∘∂K/∂θ (Wei et al. 2021,
 * reference README §2: ∂/∂log s² = ΣK̄∘K, ∂/∂log ℓ_d = ΣK̄∘K∘Δ_d²/ℓ_d²).
 */
export class RbfKernel {
  /** [log s², log ℓ_1 … log ℓ_k] with k = dim (ARD) or 1 (isotropic). */
  readonly params: Float64Array;
  private readonly inverseSquaredLengthscales: Float64Array;
  private readonly lengthscaleSums: Float64Array;

  constructor(readonly dim: number, readonly ard: boolean, variance = 1, lengthscale: number | ArrayLike<number> = 1) {
    this.params = new Float64Array(1 + (ard ? dim : 1));
    this.inverseSquaredLengthscales = new Float64Array(dim);
    this.lengthscaleSums = new Float64Array(dim);
    this.params[0] = Math.log(variance);
    for (let j = 1; j < this.params.length; j++) this.params[j] = Math.log(typeof lengthscale === 'number' ? lengthscale : lengthscale[j - 1]);
  }

  /** Number of hyperparameters. */
  get size(): number {
    return this.params.length;
  }

  /** s², the prior variance k(x, x). */
  get variance(): number {
    return Math.exp(this.params[0]);
  }

  /** ℓ_j for input dimension j. */
  lengthscale(j: number): number {
    return Math.exp(this.params[this.ard ? 1 + j : 1]);
  }

  private refresh(): void {
    for (let j = 0; j < this.dim; j++) {
      const l = this.lengthscale(j);
      this.inverseSquaredLengthscales[j] = 1 / (l * l);
    }
  }

  /**
   * K(A, B) (na×nb, row-major) for row-major inputs A (na×d) and B (nb×d). For K(A, A) (the same array
   * and count) only the upper triangle is evaluated and mirrored: the entries are bit for bit the same.
   */
  cross(a: Float64Array, na: number, b: Float64Array, nb: number, out: Float64Array): void {
    this.refresh();
    const d = this.dim;
    const s2 = this.variance;
    const w = this.inverseSquaredLengthscales;
    const symmetric = a === b && na === nb;
    for (let i = 0; i < na; i++) {
      const ai = i * d;
      const row = i * nb;
      for (let k = symmetric ? i : 0; k < nb; k++) {
        const bk = k * d;
        let r = 0;
        for (let j = 0; j < d; j++) {
          const diff = a[ai + j] - b[bk + j];
          r += diff * diff * w[j];
        }
        out[row + k] = s2 * Math.exp(-0.5 * r);
      }
    }
    if (symmetric) for (let i = 1; i < na; i++) for (let k = 0; k < i; k++) out[i * nb + k] = out[k * nb + i];
  }

  /**
   * Accumulates Σ adjoint∘∂K(A,B)/∂θ into `gradParams` and, when `gradA` is given, ∂/∂A into it,
   * for K = K(A, B) as computed by {@link cross}. For K(Z, Z) pass A = B = Z and gradA: both
   * arguments move, so the A-gradient uses (K̄ + K̄ᵀ). The lengthscale sums run in registers or a
   * scratch row (same order of additions as one update of `gradParams` per term).
   */
  accumulateGradient(adjoint: Float64Array, k: Float64Array, a: Float64Array, na: number, b: Float64Array, nb: number,
    gradParams: Float64Array, gradA?: Float64Array, symmetric = false): void {
    this.refresh();
    const d = this.dim;
    const w = this.inverseSquaredLengthscales;
    const ard = this.ard;
    const sums = this.lengthscaleSums;
    for (let j = 0; j < d; j++) sums[j] = ard ? gradParams[1 + j] : 0;
    let isotropic = ard ? 0 : gradParams[1];
    let gVariance = 0;
    for (let i = 0; i < na; i++) {
      const ai = i * d;
      for (let c = 0; c < nb; c++) {
        const kb = adjoint[i * nb + c] * k[i * nb + c];
        gVariance += kb;
        const bc = c * d;
        if (gradA !== undefined) {
          const factor = symmetric ? kb + adjoint[c * nb + i] * k[c * nb + i] : kb;
          for (let j = 0; j < d; j++) {
            const diff = a[ai + j] - b[bc + j];
            const scaled = diff * w[j];
            if (ard) sums[j] += kb * diff * scaled;
            else isotropic += kb * diff * scaled;
            gradA[ai + j] -= factor * scaled;
          }
        } else if (ard) {
          for (let j = 0; j < d; j++) {
            const diff = a[ai + j] - b[bc + j];
            sums[j] += kb * diff * (diff * w[j]);
          }
        } else {
          for (let j = 0; j < d; j++) {
            const diff = a[ai + j] - b[bc + j];
            isotropic += kb * diff * (diff * w[j]);
          }
        }
      }
    }
    if (ard) for (let j = 0; j < d; j++) gradParams[1 + j] = sums[j];
    else gradParams[1] = isotropic;
    gradParams[0] += gVariance;
  }
}
