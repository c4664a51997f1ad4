import { StudentTPredictive } from '../../core/predictive/student-t-predictive.js';
import { dot } from '../../linalg/dot.js';
import { symmetricGemv } from '../../linalg/symmetric-gemv.js';
import type { VbLinearState } from './state.js';
import type { VbLinearWorkspace } from './workspace.js';

/**
 * The fewest degrees of freedom of the predictive: 3, the smallest integer with a finite variance.
 * With the default a₀ = 0.01, 2a_N is 0.02, 1.02 and 2.02 for the empty model and after one and two
 * records: no variance (and for 0.02 no mean) — the floor makes those answers proper and finite.
 */
const MIN_DEGREES_OF_FREEDOM = 3;

/**
 * Posterior predictive of y at x (Drugowitsch eq. 23): Student-t with location w_Nᵀx, precision
 * (a_N/b_N)/(1 + xᵀV_N x) and 2a_N degrees of freedom (VBLinLogit vb_linear_pred), the degrees of
 * freedom floored at 3 while 2a_N < 3 (the empty model and the first records): the same location and
 * precision (E[τ] = a_N/b_N kept, the shape of q(τ) floored at 3/2), so its mean is the location and its
 * variance 3/precision, and mean, variance, intervals, logProb and samples come from that one
 * distribution. O(d²); keeps x and V_N·x in the workspace for an update with the same record.
 */
export function predictVbLinear(state: VbLinearState, workspace: VbLinearWorkspace, x: Float64Array, offset = 0): StudentTPredictive {
  const dim = state.dim;
  const { predictedX, predictedVx } = workspace;
  for (let j = 0; j < dim; j++) predictedX[j] = x[offset + j];
  symmetricGemv(state.V, dim, predictedX, predictedVx);
  workspace.predictedValid = true;
  const location = dot(state.w, predictedX, dim);
  const precision = state.an / state.bn / (1 + dot(predictedX, predictedVx, dim));
  return new StudentTPredictive(location, precision, Math.max(2 * state.an, MIN_DEGREES_OF_FREEDOM));
}
