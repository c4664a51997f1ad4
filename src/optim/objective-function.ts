/**
 * An objective to minimise over a flat parameter vector: returns f(x) and writes ∇f(x) into
 * `gradient` (same length as x). It must not keep references to `x` or `gradient`.
 */
export type ObjectiveFunction = (x: Float64Array, gradient: Float64Array) => number;
