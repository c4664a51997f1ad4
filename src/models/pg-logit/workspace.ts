/**
 * Scratch of a pg-logit model: a d-vector for predictions, draws and ξ, the ±1 labels of a batch,
 * and the SVI step's buffers (the minibatch gradient, the target precision, the row norms' work
 * space, and per-record ξ-variances and Gram scales grown to the largest minibatch seen), and the
 * `sda` replay's base factor and mean and the ξ of a batch larger than the window.
 */
export interface PgLogitWorkspace {
  readonly work: Float64Array;
  readonly baseFactor: Float64Array;
  readonly baseMean: Float64Array;
  xi: Float64Array;
  readonly rowNormWork: Float64Array;
  readonly gradient: Float64Array;
  readonly targetPrecision: Float64Array;
  labels: Float64Array;
  variances: Float64Array;
  rowScale: Float64Array;
}

/** A workspace for dimension `dim`. */
export function pgLogitWorkspace(dim: number): PgLogitWorkspace {
  return {
    work: new Float64Array(dim), baseFactor: new Float64Array(dim * dim), baseMean: new Float64Array(dim), xi: new Float64Array(0),
    rowNormWork: new Float64Array(8 * dim), gradient: new Float64Array(dim), targetPrecision: new Float64Array(dim * dim),
    labels: new Float64Array(0), variances: new Float64Array(0), rowScale: new Float64Array(0),
  };
}
