import { jaakkolaJordanLambda } from '../../special/jaakkola-jordan-lambda.js';
import { log1pexp } from '../../special/log1pexp.js';

/**
 * One record's term of the Pólya-gamma ELBO, E_q[ln p(yᵢ, ωᵢ | β)] − E_q[ln q(ωᵢ)] with q(ωᵢ) = PG(1, ξᵢ):
 * (yᵢ − ½)m − ln(2cosh(ξ/2)) − (z̄/2)(v + m² − ξ²), where m = xᵢᵀμ, v = xᵢᵀΣxᵢ and z̄ = E[ωᵢ] =
 * tanh(ξ/2)/(2ξ) = 2λ(ξ) (Durante & Rigon Lemma 2.1 and eq. 2.3). It equals the Jaakkola–Jordan bound
 * term; at the optimal ξ = √(v + m²) the last part vanishes. `halfY` = yᵢ − ½ ∈ {±½}; `lambda` = λ(ξ)
 * when the caller has it already.
 */
export function recordElbo(halfY: number, m: number, v: number, xi: number, lambda = jaakkolaJordanLambda(xi)): number {
  const a = Math.abs(xi);
  return halfY * m - 0.5 * a - log1pexp(-a) - lambda * (v + m * m - a * a);
}
