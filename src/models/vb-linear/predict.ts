import { StudentTPredictive } from '../../core/predictive/student-t-predictive.js';
import { dot } from '../../linalg/dot.js';
import { quadraticForm } from '../../linalg/quadratic-form.js';
import type { VbLinearPosterior } from './posterior.js';

/**
 * Posterior predictive of y at x (Drugowitsch eq. 23): Student-t with location w_Nᵀx, precision
 * (a_N/b_N)/(1 + xᵀV_N x) and 2a_N degrees of freedom (VBLinLogit vb_linear_pred).
 */
export function predictVbLinear(posterior: VbLinearPosterior, dim: number, x: Float64Array, offset = 0): StudentTPredictive {
  const location = dot(posterior.w, x, dim, 0, offset);
  const precision = posterior.an / posterior.bn / (1 + quadraticForm(posterior.V, dim, x, offset));
  return new StudentTPredictive(location, precision, 2 * posterior.an);
}
