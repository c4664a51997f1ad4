import { GaussianSampler } from '../../gaussian/gaussian-sampler.js';
import { quadratureScratch, type QuadratureScratch } from './quadrature-scratch.js';
import type { TiltedMoments } from './tilted-moments.js';

/** Scratch of an ADF model (reused by every record and prediction) and its sampler's cached factor. */
export interface AdfWorkspace {
  /** V·x of the current record. */
  readonly vx: Float64Array;
  readonly moments: TiltedMoments;
  readonly quadrature: QuadratureScratch;
  readonly sampler: GaussianSampler;
  labels: Float64Array;
}

/** A workspace for dimension `dim` and an `nodes`-point Gauss–Hermite rule. */
export function adfWorkspace(dim: number, nodes: number): AdfWorkspace {
  return { vx: new Float64Array(dim), moments: { logZ: 0, alpha: 0, nu: 0 }, quadrature: quadratureScratch(nodes), sampler: new GaussianSampler(dim), labels: new Float64Array(0) };
}
