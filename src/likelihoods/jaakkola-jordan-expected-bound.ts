import { jaakkolaJordanLambda } from '../special/jaakkola-jordan-lambda.js';
import { log1pexp } from '../special/log1pexp.js';

/**
 * The Jaakkola–Jordan bound on ln σ(s·u) in expectation over the logit u ~ N(m, v) at a given ξ:
 * (s/2)·m + ln σ(ξ) − ξ/2 − λ(ξ)(v + m² − ξ²), with `halfY` = s/2 ∈ {±½}. It is also one record's
 * term of the Pólya-gamma ELBO, E_q[ln p(yᵢ, ωᵢ | β)] − E_q[ln q(ωᵢ)] with q(ωᵢ) = PG(1, ξ) and
 * E[ωᵢ] = 2λ(ξ) (Durante & Rigon Lemma 2.1 and eq. 2.3); at the optimal ξ = √(v + m²) the last part
 * vanishes. It equals `jaakkolaJordanXiTerm` plus (s/2)·m − λ(ξ)(v + m²), arranged as the
 * Pólya-gamma references evaluate it. `lambda` = λ(ξ) when the caller has it already.
 */
export function jaakkolaJordanExpectedBound(halfY: number, m: number, v: number, xi: number, lambda = jaakkolaJordanLambda(xi)): number {
  const a = Math.abs(xi);
  return halfY * m - 0.5 * a - log1pexp(-a) - lambda * (v + m * m - a * a);
}
