/**
 * A minibatch of n records with d features, stored flat and row-major: record i's features are
 * `x[i*d .. i*d+d)`, its label `y[i]`. `weights` (optional, length n) scales each record's
 * likelihood. `firstRow` is the 1-based position of record 0 in its stream or file, used only to
 * say where bad input was found.
 */
export interface Batch {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly n: number;
  readonly d: number;
  readonly weights?: Float64Array;
  readonly firstRow?: number;
}
