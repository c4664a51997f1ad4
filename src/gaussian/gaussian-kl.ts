import { cholesky } from '../linalg/cholesky.js';
import { choleskySolve } from '../linalg/cholesky-solve.js';
import { logDetCholesky } from '../linalg/log-det-cholesky.js';

/** KL(N(m0, S0) ‖ N(m1, S1)) = ½[tr(S1⁻¹S0) + (m1 − m0)ᵀS1⁻¹(m1 − m0) − d + ln|S1| − ln|S0|] : how far q₁ is from q₀ (the Gaussian KL divergence). */
export function gaussianKl(m0: ArrayLike<number>, s0: Float64Array, m1: ArrayLike<number>, s1: Float64Array, d: number): number {
  const l1 = new Float64Array(d * d);
  const l0 = new Float64Array(d * d);
  cholesky(s1, d, l1);
  cholesky(s0, d, l0);
  let trace = 0;
  const column = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    for (let i = 0; i < d; i++) column[i] = s0[i * d + j];
    choleskySolve(l1, d, column, column);
    trace += column[j];
  }
  const diff = Float64Array.from(m1, (v, i) => v - m0[i]);
  const solved = new Float64Array(d);
  choleskySolve(l1, d, diff, solved);
  let quad = 0;
  for (let i = 0; i < d; i++) quad += diff[i] * solved[i];
  return 0.5 * (trace + quad - d + logDetCholesky(l1, d) - logDetCholesky(l0, d));
}
