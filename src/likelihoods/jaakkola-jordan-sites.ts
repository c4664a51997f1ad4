/**
 * A bounded window of recent records of a Jaakkola–Jordan / Pólya-gamma model kept with their local
 * variational parameters ξ, oldest first, preallocated to a capacity (`y.length`). Under the bound
 * each record is a Gaussian site in natural parameters, precision 2λ(ξ)·w·xxᵀ and shift (y/2)·w·x
 * (Jaakkola & Jordan 2000; Drugowitsch eq. 46–47; Durante & Rigon eq. 3.1 with E[ω] = 2λ(ξ)), so the
 * sites of the window can be re-optimised with every update while older ones stay frozen.
 */
export interface JaakkolaJordanSites {
  /** Features, capacity × d row-major (the first `count` rows in use). */
  readonly x: Float64Array;
  /** Labels ±1. */
  readonly y: Float64Array;
  /** Record weights (1 when none were given). */
  readonly weights: Float64Array;
  /** ξ behind each record's site in the current q. */
  readonly xi: Float64Array;
  count: number;
}

/** An empty window for `capacity` records of dimension `d`. */
export function jaakkolaJordanSites(capacity: number, d: number): JaakkolaJordanSites {
  return { x: new Float64Array(capacity * d), y: new Float64Array(capacity), weights: new Float64Array(capacity), xi: new Float64Array(capacity), count: 0 };
}
