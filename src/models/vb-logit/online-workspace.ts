import { GaussianSampler } from '../../gaussian/gaussian-sampler.js';
import { JaakkolaJordanRow } from '../../likelihoods/jaakkola-jordan-row.js';

/** Scratch of a vb-logit-online model (reused by every record and prediction) and its sampler's cached factor. */
export interface VbLogitOnlineWorkspace {
  readonly vx: Float64Array;
  readonly row: JaakkolaJordanRow;
  readonly sampler: GaussianSampler;
  labels: Float64Array;
}

/** A workspace for dimension `dim`. */
export function vbLogitOnlineWorkspace(dim: number): VbLogitOnlineWorkspace {
  return { vx: new Float64Array(dim), row: new JaakkolaJordanRow(), sampler: new GaussianSampler(dim), labels: new Float64Array(0) };
}
