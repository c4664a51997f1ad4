import { cholesky } from '../../linalg/cholesky.js';
import { choleskySolve } from '../../linalg/cholesky-solve.js';

/**
 * From natural parameters (λ₁ = `shift`, −2λ₂ = `precision`) to the factor L of −2λ₂ and the mean
 * μ = (−2λ₂)⁻¹λ₁ by two triangular solves (Algorithm 2–3: "μ = (−2λ₂)⁻¹λ₁"); no inverse is formed.
 * Throws `NumericalError` (from the Cholesky) before writing `mean` if −2λ₂ is not positive definite.
 */
export function refreshMoments(shift: Float64Array, precision: Float64Array, d: number, factor: Float64Array, mean: Float64Array): void {
  cholesky(precision, d, factor, { what: 'posterior precision −2λ₂' });
  choleskySolve(factor, d, shift, mean);
}
