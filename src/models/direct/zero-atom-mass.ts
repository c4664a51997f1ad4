/** Expected fraction of weights at the zero atom, (1/b) Σ_j q(w_j = 0), from marginals `probs` (b×m̄) on `support`. */
export function zeroAtomMass(probs: Float64Array, support: Float64Array, b: number): number {
  let mass = 0;
  for (let i = 0; i < support.length; i++) if (support[i] === 0) mass += probs[i];
  return mass / b;
}
