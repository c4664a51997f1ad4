/**
 * What one record's likelihood does to the projection f = xᵀβ ~ N(μ, s²): log Z of the tilted
 * distribution p̃(f) ∝ p(y | f)^weight·N(f; μ, s²), α = ∂log Z/∂μ and ν = −∂²log Z/∂μ², so that
 * E_p̃[f] = μ + α·s² and Var_p̃[f] = s² − ν·s⁴ (Minka 2001, eq. 3.10–3.11).
 */
export interface TiltedMoments {
  logZ: number;
  alpha: number;
  nu: number;
}
