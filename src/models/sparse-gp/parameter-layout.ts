/**
 * Where each parameter group sits in the sparse GP's flat parameter vector θ (the vector Adam moves):
 * m (M) · L packed lower triangle row by row with log-diagonal (M(M+1)/2) · kernel (log s², log ℓ…) ·
 * log σ² · constant mean c · Z (M×d).
 */
export class ParameterLayout {
  readonly m = 0;
  readonly l: number;
  readonly kernel: number;
  readonly noise: number;
  readonly mean: number;
  readonly z: number;
  readonly size: number;

  constructor(readonly M: number, readonly dim: number, readonly kernelSize: number) {
    this.l = M;
    this.kernel = this.l + (M * (M + 1)) / 2;
    this.noise = this.kernel + kernelSize;
    this.mean = this.noise + 1;
    this.z = this.mean + 1;
    this.size = this.z + M * dim;
  }

  /** Writes the full M×M lower factor (raw diagonal) from θ into `out`. */
  unpackL(theta: Float64Array, out: Float64Array): void {
    const M = this.M;
    out.fill(0);
    let k = this.l;
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < a; b++) out[a * M + b] = theta[k++];
      out[a * M + a] = Math.exp(theta[k++]);
    }
  }

  /** Packs a full lower factor (positive diagonal) into θ. */
  packL(full: Float64Array, theta: Float64Array): void {
    const M = this.M;
    let k = this.l;
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < a; b++) theta[k++] = full[a * M + b];
      theta[k++] = Math.log(full[a * M + a]);
    }
  }

  /** Packs ∂/∂L (full, raw diagonal) into the θ gradient, chaining the diagonal to log: ∂/∂log L_jj = L_jj ∂/∂L_jj. */
  packLGradient(gradL: Float64Array, fullL: Float64Array, out: Float64Array): void {
    const M = this.M;
    let k = this.l;
    for (let a = 0; a < M; a++) {
      for (let b = 0; b < a; b++) out[k++] = gradL[a * M + b];
      out[k++] = gradL[a * M + a] * fullL[a * M + a];
    }
  }
}
