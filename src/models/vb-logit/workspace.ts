import { vbLogitOnlineWorkspace, type VbLogitOnlineWorkspace } from './online-workspace.js';

/**
 * Scratch of a vb-logit(-ard) model: that of vb-logit-online (prediction, sampling, labels) plus the
 * VB passes' Cholesky factor (d×d), b_N (1, or d with ARD) and the per-record ξ, λ(ξ) and Gram row
 * scales of the current block (grown to the largest batch or window), and the ξ of a batch larger than
 * the replayed window.
 */
export interface VbLogitWorkspace extends VbLogitOnlineWorkspace {
  readonly factor: Float64Array;
  readonly bn: Float64Array;
  xi: Float64Array;
  lambda: Float64Array;
  rowScale: Float64Array;
  siteXi: Float64Array;
}

/** A workspace for dimension `dim` (with one b_N per weight under ARD). */
export function vbLogitWorkspace(dim: number, ard: boolean): VbLogitWorkspace {
  return {
    ...vbLogitOnlineWorkspace(dim),
    factor: new Float64Array(dim * dim), bn: new Float64Array(ard ? dim : 1),
    xi: new Float64Array(0), lambda: new Float64Array(0), rowScale: new Float64Array(0), siteXi: new Float64Array(0),
  };
}
