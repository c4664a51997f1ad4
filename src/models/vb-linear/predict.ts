import { StudentTPredictive } from '../../core/predictive/student-t-predictive.js';
import { dot } from '../../linalg/dot.js';
import { symmetricGemv } from '../../linalg/symmetric-gemv.js';
import type { VbLinearState } from './state.js';
import type { VbLinearWorkspace } from './workspace.js';

/**
 * Posterior predictive of y at x (Drugowitsch eq. 23): Student-t with location w_Nᵀx, precision
 * (a_N/b_N)/(1 + xᵀV_N x) and 2a_N degrees of freedom (VBLinLogit vb_linear_pred). O(d²); keeps x
 * and V_N·x in the workspace for an update with the same record.
 */
export function predictVbLinear(state: VbLinearState, workspace: VbLinearWorkspace, x: Float64Array, offset = 0): StudentTPredictive {
  const dim = state.dim;
  const { predictedX, predictedVx } = workspace;
  for (let j = 0; j < dim; j++) predictedX[j] = x[offset + j];
  symmetricGemv(state.V, dim, predictedX, predictedVx);
  workspace.predictedValid = true;
  const location = dot(state.w, predictedX, dim);
  const precision = state.an / state.bn / (1 + dot(predictedX, predictedVx, dim));
  return new StudentTPredictive(location, precision, 2 * state.an);
}
