import type { OptionDocs } from '../../core/option-docs.js';
import type { DirectGrid } from './state.js';

/** The options that define a DIRECT grid (see `buildDirectGrid`). */
export interface DirectGridOptions {
  /** Atoms per weight for the default grid (default 15: 4-bit codes, 0 included when odd). */
  readonly supportSize?: number;
  /** σ_w of the default grid linspace(−3σ_w, 3σ_w, m̄) and of its discretised N(0, σ_w²) prior (default 1). */
  readonly sigmaW?: number;
  /** Explicit support, b rows of m̄ ascending values. */
  readonly support?: readonly (readonly number[])[];
  /** Prior probabilities, b rows of m̄ positive values (each row is normalised). */
  readonly priorProbs?: readonly (readonly number[])[];
  /** Noise-variance atoms σ²_k > 0 (default 25 values geometric from 1e-4 to 1e2). */
  readonly noiseSupport?: readonly number[];
  /** Prior probabilities of the noise atoms (default uniform; normalised). */
  readonly noisePriorProbs?: readonly number[];
  /** An existing model's grid (`model.grid`), copied bit for bit instead of built, so the new model merges with that one. */
  readonly grid?: DirectGrid;
}

/** What the weight-grid options of both DIRECT families mean. */
export const WEIGHT_GRID_OPTION_DOCS: OptionDocs = {
  supportSize: 'atoms per weight of the default grid linspace(−3σ_w, 3σ_w, m̄) (default 15: 4-bit codes)',
  sigmaW: 'σ_w of the default grid and of its discretised N(0, σ_w²) prior (default 1)',
  support: 'explicit support: b rows of m̄ strictly ascending atoms (instead of supportSize)',
  priorProbs: 'prior probabilities: b rows of m̄ positive values, each normalised (default: the discretised N(0, σ_w²))',
  grid: 'the grid of an existing model (`model.grid`), copied bit for bit instead of the grid options, so the two models merge',
};
