/**
 * The optimal variational parameter of the Jaakkola–Jordan bound for a logit u ~ N(m, v):
 * ξ = √E[u²] = √(v + m²) (Jaakkola & Jordan 2000; Drugowitsch eq. 58 with m = xᵀw, v = xᵀVx;
 * Durante & Rigon Algorithm 2).
 */
export function jaakkolaJordanXi(m: number, v: number): number {
  return Math.sqrt(v + m * m);
}
