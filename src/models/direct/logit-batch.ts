import type { Batch } from '../../core/batch.js';
import { signedLabels } from '../../core/signed-labels.js';
import type { DirectLogitState } from './logit-state.js';
import type { DirectLogitWorkspace } from './logit-workspace.js';

/** A checked batch as the Theorem-2 bound reads it: features Φ (the records, or their images under the feature map) and labels ±1, in workspace buffers. */
export function directLogitBatch(state: DirectLogitState, workspace: DirectLogitWorkspace, batch: Batch): { phi: Float64Array; signs: Float64Array } {
  const { n } = batch;
  if (workspace.signs.length < n) workspace.signs = new Float64Array(n);
  const signs = signedLabels(batch, workspace.signs);
  const features = state.features;
  if (features === undefined) return { phi: batch.x, signs };
  const b = features.outputDim;
  if (workspace.phi.length < n * b) workspace.phi = new Float64Array(n * b);
  for (let r = 0; r < n; r++) features.map(batch.x, r * batch.d, workspace.phi, r * b);
  return { phi: workspace.phi, signs };
}
