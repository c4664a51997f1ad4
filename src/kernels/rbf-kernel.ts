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
  private columns = new Float64Array(0);
  private rowA = new Float64Array(0);
  private rowB = new Float64Array(0);

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

  /** B (nb×d, row-major) transposed into `this.columns` (d×nb), with two scratch rows of length nb. */
  private prepareColumns(b: Float64Array, nb: number): void {
    const d = this.dim;
    if (this.rowA.length < nb) {
      this.columns = new Float64Array(d * nb);
      this.rowA = new Float64Array(nb);
      this.rowB = new Float64Array(nb);
    }
    const columns = this.columns;
    for (let k = 0; k < nb; k++) for (let j = 0; j < d; j++) columns[j * nb + k] = b[k * d + j];
  }

  /**
   * K(A, B) (na×nb, row-major) for row-major inputs A (na×d) and B (nb×d). For K(A, A) (the same array
   * and count) only the upper triangle is evaluated and mirrored; otherwise B is read transposed so the
   * inner loop runs over B's rows. Either way each entry's sum runs over the dimensions in order, so the
   * entries are bit for bit those of the plain double loop.
   */
  cross(a: Float64Array, na: number, b: Float64Array, nb: number, out: Float64Array): void {
    this.refresh();
    const d = this.dim;
    const s2 = this.variance;
    const w = this.inverseSquaredLengthscales;
    if (a === b && na === nb) {
      for (let i = 0; i < na; i++) {
        const ai = i * d;
        const row = i * nb;
        for (let k = i; k < nb; k++) {
          const bk = k * d;
          let r = 0;
          for (let j = 0; j < d; j++) {
            const diff = a[ai + j] - b[bk + j];
            r += diff * diff * w[j];
          }
          out[row + k] = s2 * Math.exp(-0.5 * r);
        }
      }
      for (let i = 1; i < na; i++) for (let k = 0; k < i; k++) out[i * nb + k] = out[k * nb + i];
      return;
    }
    this.prepareColumns(b, nb);
    const { columns, rowA: r } = this;
    for (let i = 0; i < na; i++) {
      const ai = i * d;
      r.fill(0, 0, nb);
      for (let j = 0; j < d; j++) {
        const aij = a[ai + j];
        const wj = w[j];
        const col = j * nb;
        for (let k = 0; k < nb; k++) {
          const diff = aij - columns[col + k];
          r[k] += diff * diff * wj;
        }
      }
      const row = i * nb;
      for (let k = 0; k < nb; k++) out[row + k] = s2 * Math.exp(-0.5 * r[k]);
    }
  }

  /**
   * Accumulates Σ adjoint∘∂K(A,B)/∂θ into `gradParams` and, when `gradA` is given, ∂/∂A into it,
   * for K = K(A, B) as computed by {@link cross}. For K(Z, Z) pass A = B = Z and gradA: both
   * arguments move, so the A-gradient uses (K̄ + K̄ᵀ). Every sum is added in the order of one update of
   * `gradParams` / `gradA` per (row of A, row of B, dimension) term, held in registers: for ARD (or one
   * input dimension) with B read transposed, for the isotropic kernel in that plain order.
   */
  accumulateGradient(adjoint: Float64Array, k: Float64Array, a: Float64Array, na: number, b: Float64Array, nb: number,
    gradParams: Float64Array, gradA?: Float64Array, symmetric = false): void {
    this.refresh();
    const d = this.dim;
    if (this.ard || d === 1) this.accumulateByColumns(adjoint, k, a, na, b, nb, gradParams, gradA, symmetric);
    else this.accumulateIsotropic(adjoint, k, a, na, b, nb, gradParams, gradA, symmetric);
  }

  private accumulateByColumns(adjoint: Float64Array, k: Float64Array, a: Float64Array, na: number, b: Float64Array, nb: number,
    gradParams: Float64Array, gradA: Float64Array | undefined, symmetric: boolean): void {
    const d = this.dim;
    const w = this.inverseSquaredLengthscales;
    const first = this.ard ? 1 : 0;
    const sums = this.lengthscaleSums;
    if (this.ard) for (let j = 0; j < d; j++) sums[j] = gradParams[1 + j];
    else sums[0] = gradParams[1];
    this.prepareColumns(b, nb);
    const { columns, rowA: kb, rowB: factor } = this;
    let gVariance = 0;
    for (let i = 0; i < na; i++) {
      const ai = i * d;
      const row = i * nb;
      for (let c = 0; c < nb; c++) {
        const value = adjoint[row + c] * k[row + c];
        kb[c] = value;
        gVariance += value;
        factor[c] = symmetric ? value + adjoint[c * nb + i] * k[c * nb + i] : value;
      }
      for (let j = 0; j < d; j++) {
        const aij = a[ai + j];
        const wj = w[j];
        const col = j * nb;
        let sum = sums[j * first];
        if (gradA === undefined) {
          for (let c = 0; c < nb; c++) {
            const diff = aij - columns[col + c];
            sum += kb[c] * diff * (diff * wj);
          }
        } else {
          let g = gradA[ai + j];
          for (let c = 0; c < nb; c++) {
            const diff = aij - columns[col + c];
            const scaled = diff * wj;
            sum += kb[c] * diff * scaled;
            g -= factor[c] * scaled;
          }
          gradA[ai + j] = g;
        }
        sums[j * first] = sum;
      }
    }
    if (this.ard) for (let j = 0; j < d; j++) gradParams[1 + j] = sums[j];
    else gradParams[1] = sums[0];
    gradParams[0] += gVariance;
  }

  private accumulateIsotropic(adjoint: Float64Array, k: Float64Array, a: Float64Array, na: number, b: Float64Array, nb: number,
    gradParams: Float64Array, gradA: Float64Array | undefined, symmetric: boolean): void {
    const d = this.dim;
    const w = this.inverseSquaredLengthscales;
    let sum = gradParams[1];
    let gVariance = 0;
    for (let i = 0; i < na; i++) {
      const ai = i * d;
      for (let c = 0; c < nb; c++) {
        const kb = adjoint[i * nb + c] * k[i * nb + c];
        gVariance += kb;
        const bc = c * d;
        const factor = symmetric ? kb + adjoint[c * nb + i] * k[c * nb + i] : kb;
        for (let j = 0; j < d; j++) {
          const diff = a[ai + j] - b[bc + j];
          const scaled = diff * w[j];
          sum += kb * diff * scaled;
          if (gradA !== undefined) gradA[ai + j] -= factor * scaled;
        }
      }
    }
    gradParams[1] = sum;
    gradParams[0] += gVariance;
  }
}
