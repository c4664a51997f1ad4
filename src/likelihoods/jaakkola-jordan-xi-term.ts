import { log1pexp } from '../special/log1pexp.js';

/**
 * The part of the Jaakkola–Jordan bound ln σ(u) ≥ ln σ(ξ) + (u − ξ)/2 − λ(ξ)(u² − ξ²) that does not
 * depend on u: ln σ(ξ) − ξ/2 + λ(ξ)ξ² (the per-record term of Drugowitsch eq. 60, once the terms in
 * u are absorbed into the Gaussian q(w)). `lambda` = λ(ξ); ξ ≥ 0.
 */
export function jaakkolaJordanXiTerm(xi: number, lambda: number): number {
  return -log1pexp(-xi) + lambda * xi * xi - 0.5 * xi;
}
