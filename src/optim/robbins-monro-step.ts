/**
 * Robbins–Monro step size ρ_t = (t + τ)^(−κ) (Durante & Rigon, Algorithm 3; Hoffman et al. 2013):
 * Σρ_t = ∞ and Σρ_t² < ∞ need κ ∈ (0.5, 1] and τ ≥ 0, which the caller validates.
 */
export function robbinsMonroStep(t: number, tau: number, kappa: number): number {
  return (t + tau) ** -kappa;
}
