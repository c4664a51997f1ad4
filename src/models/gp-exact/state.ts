/** State of `gp-exact`: every record (x row-major n×d, y), the hyperparameters [log s², log ℓ…, log σ²] and settings. */
export interface GpExactState {
  readonly dim: number;
  readonly ard: boolean;
  readonly fixedKernel: boolean;
  readonly fixedNoise: boolean;
  readonly maxIterations: number;
  params: Float64Array;
  x: Float64Array;
  y: Float64Array;
  records: number;
  logMarginal: number;
}
