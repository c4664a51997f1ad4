import { directPosterior } from './cached-posterior.js';
import { directPredictiveMoments, type DirectPredictiveMoments } from './predict.js';
import type { DirectState } from './state.js';
import type { DirectWorkspace } from './workspace.js';

/** Exact predictive moments (eq. 9 and the law of total variance) of the record at `x[offset ..]`, through the feature map when there is one. */
export function directRecordMoments(state: DirectState, workspace: DirectWorkspace, x: Float64Array, offset: number): DirectPredictiveMoments {
  const p = directPosterior(state, workspace);
  const c = p.components;
  const features = state.features;
  if (features === undefined) return directPredictiveMoments(c.weights, c.means, c.variances, p.expectedNoise, x, offset);
  features.map(x, offset, workspace.row);
  return directPredictiveMoments(c.weights, c.means, c.variances, p.expectedNoise, workspace.row);
}
