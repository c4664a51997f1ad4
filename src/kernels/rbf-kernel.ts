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
   * K(A, B) (na×nb, row-major) for row-major inputs A (na×d) and B (nb×d), in register tiles of four rows
   * of A by four rows of B (each loaded coordinate used four times). For K(A, A) (the same array and count)
   * only the tiles on and above the diagonal are evaluated and the upper triangle mirrored (the squared
   * differences, and so the entries, are exactly symmetric). Each entry's sum runs over the dimensions in
   * order, so the entries are bit for bit those of the plain double loop.
   */
  cross(a: Float64Array, na: number, b: Float64Array, nb: number, out: Float64Array): void {
    this.refresh();
    const d = this.dim;
    const s2 = this.variance;
    const symmetric = a === b && na === nb;
    const w = this.inverseSquaredLengthscales;
    let i = 0;
    for (; i + 3 < na; i += 4) {
      const a0 = i * d;
      const a1 = a0 + d;
      const a2 = a1 + d;
      const a3 = a2 + d;
      const o0 = i * nb;
      const o1 = o0 + nb;
      const o2 = o1 + nb;
      const o3 = o2 + nb;
      let k = symmetric ? i : 0;
      for (; k + 3 < nb; k += 4) {
        const b0 = k * d;
        const b1 = b0 + d;
        const b2 = b1 + d;
        const b3 = b2 + d;
        let r00 = 0;
        let r01 = 0;
        let r02 = 0;
        let r03 = 0;
        let r10 = 0;
        let r11 = 0;
        let r12 = 0;
        let r13 = 0;
        let r20 = 0;
        let r21 = 0;
        let r22 = 0;
        let r23 = 0;
        let r30 = 0;
        let r31 = 0;
        let r32 = 0;
        let r33 = 0;
        for (let j = 0; j < d; j++) {
          const wj = w[j];
          const y0 = b[b0 + j];
          const y1 = b[b1 + j];
          const y2 = b[b2 + j];
          const y3 = b[b3 + j];
          let x = a[a0 + j];
          let e = x - y0;
          r00 += e * e * wj;
          e = x - y1;
          r01 += e * e * wj;
          e = x - y2;
          r02 += e * e * wj;
          e = x - y3;
          r03 += e * e * wj;
          x = a[a1 + j];
          e = x - y0;
          r10 += e * e * wj;
          e = x - y1;
          r11 += e * e * wj;
          e = x - y2;
          r12 += e * e * wj;
          e = x - y3;
          r13 += e * e * wj;
          x = a[a2 + j];
          e = x - y0;
          r20 += e * e * wj;
          e = x - y1;
          r21 += e * e * wj;
          e = x - y2;
          r22 += e * e * wj;
          e = x - y3;
          r23 += e * e * wj;
          x = a[a3 + j];
          e = x - y0;
          r30 += e * e * wj;
          e = x - y1;
          r31 += e * e * wj;
          e = x - y2;
          r32 += e * e * wj;
          e = x - y3;
          r33 += e * e * wj;
        }
        out[o0 + k] = s2 * Math.exp(-0.5 * r00);
        out[o0 + k + 1] = s2 * Math.exp(-0.5 * r01);
        out[o0 + k + 2] = s2 * Math.exp(-0.5 * r02);
        out[o0 + k + 3] = s2 * Math.exp(-0.5 * r03);
        out[o1 + k] = s2 * Math.exp(-0.5 * r10);
        out[o1 + k + 1] = s2 * Math.exp(-0.5 * r11);
        out[o1 + k + 2] = s2 * Math.exp(-0.5 * r12);
        out[o1 + k + 3] = s2 * Math.exp(-0.5 * r13);
        out[o2 + k] = s2 * Math.exp(-0.5 * r20);
        out[o2 + k + 1] = s2 * Math.exp(-0.5 * r21);
        out[o2 + k + 2] = s2 * Math.exp(-0.5 * r22);
        out[o2 + k + 3] = s2 * Math.exp(-0.5 * r23);
        out[o3 + k] = s2 * Math.exp(-0.5 * r30);
        out[o3 + k + 1] = s2 * Math.exp(-0.5 * r31);
        out[o3 + k + 2] = s2 * Math.exp(-0.5 * r32);
        out[o3 + k + 3] = s2 * Math.exp(-0.5 * r33);
      }
      for (let r = i; r < i + 4; r++) for (let c = k; c < nb; c++) out[r * nb + c] = s2 * Math.exp(-0.5 * this.scaledDistance(a, r * d, b, c * d));
    }
    for (; i < na; i++) for (let c = symmetric ? i : 0; c < nb; c++) out[i * nb + c] = s2 * Math.exp(-0.5 * this.scaledDistance(a, i * d, b, c * d));
    if (symmetric) for (let r = 1; r < na; r++) for (let c = 0; c < r; c++) out[r * nb + c] = out[c * nb + r];
  }

  /** Σ_j (a[ai + j] − b[bk + j])²/ℓ_j², over the dimensions in order. */
  private scaledDistance(a: Float64Array, ai: number, b: Float64Array, bk: number): number {
    const w = this.inverseSquaredLengthscales;
    let r = 0;
    for (let j = 0; j < this.dim; j++) {
      const diff = a[ai + j] - b[bk + j];
      r += diff * diff * w[j];
    }
    return r;
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
      let j = 0;
      // ARD with gradA: four dimensions per pass over the columns, each sum still in its own order
      if (this.ard && gradA !== undefined) j = this.accumulateFourDimensions(a, ai, nb, kb, factor, gradA);
      for (; j < d; j++) {
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

  /**
   * The ARD lengthscale sums and ∂/∂A of row A[ai…] for dimensions j, j + 1, j + 2, j + 3 at a time (j < d − 3)
   * over the nb columns: eight independent running sums, each added to in the order of the one-dimension loop.
   * Returns the first dimension left.
   */
  private accumulateFourDimensions(a: Float64Array, ai: number, nb: number, kb: Float64Array, factor: Float64Array, gradA: Float64Array): number {
    const d = this.dim;
    const w = this.inverseSquaredLengthscales;
    const sums = this.lengthscaleSums;
    const columns = this.columns;
    let j = 0;
    for (; j + 3 < d; j += 4) {
      const a0 = a[ai + j];
      const a1 = a[ai + j + 1];
      const a2 = a[ai + j + 2];
      const a3 = a[ai + j + 3];
      const w0 = w[j];
      const w1 = w[j + 1];
      const w2 = w[j + 2];
      const w3 = w[j + 3];
      const col0 = j * nb;
      const col1 = col0 + nb;
      const col2 = col1 + nb;
      const col3 = col2 + nb;
      let s0 = sums[j];
      let s1 = sums[j + 1];
      let s2 = sums[j + 2];
      let s3 = sums[j + 3];
      let g0 = gradA[ai + j];
      let g1 = gradA[ai + j + 1];
      let g2 = gradA[ai + j + 2];
      let g3 = gradA[ai + j + 3];
      for (let c = 0; c < nb; c++) {
        const kc = kb[c];
        const fc = factor[c];
        const e0 = a0 - columns[col0 + c];
        const e1 = a1 - columns[col1 + c];
        const e2 = a2 - columns[col2 + c];
        const e3 = a3 - columns[col3 + c];
        const t0 = e0 * w0;
        const t1 = e1 * w1;
        const t2 = e2 * w2;
        const t3 = e3 * w3;
        s0 += kc * e0 * t0;
        s1 += kc * e1 * t1;
        s2 += kc * e2 * t2;
        s3 += kc * e3 * t3;
        g0 -= fc * t0;
        g1 -= fc * t1;
        g2 -= fc * t2;
        g3 -= fc * t3;
      }
      sums[j] = s0;
      sums[j + 1] = s1;
      sums[j + 2] = s2;
      sums[j + 3] = s3;
      gradA[ai + j] = g0;
      gradA[ai + j + 1] = g1;
      gradA[ai + j + 2] = g2;
      gradA[ai + j + 3] = g3;
    }
    return j;
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
