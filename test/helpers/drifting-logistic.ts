import { logisticData, type SyntheticData } from './synthetic-data.js';

/** `n` records of seed `first`'s weights, then `n` of seed `second`'s: the weights change half-way. */
export function driftingLogistic(n: number, d: number, first: number, second: number): { data: SyntheticData; weights: Float64Array[] } {
  const a = logisticData(n, d, first);
  const b = logisticData(n, d, second);
  const x = new Float64Array(2 * n * d);
  const y = new Float64Array(2 * n);
  x.set(a.x);
  x.set(b.x, n * d);
  y.set(a.y);
  y.set(b.y, n);
  return { data: { x, y, n: 2 * n, d, w: b.w }, weights: [a.w, b.w] };
}
