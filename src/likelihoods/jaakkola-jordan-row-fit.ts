import { NumericalError } from '../core/numerical-error.js';
import type { JaakkolaJordanRow } from './jaakkola-jordan-row.js';

/**
 * Iterates {@link JaakkolaJordanRow.step} to convergence with VBLinLogit's per-record rule: stop
 * when |L_last − L| < tol·|L| or after maxIter steps, where L is the record's bound plus
 * ½·`logDetV` (ln|V| when learning, 0 when predicting, exactly as the reference's stopping test
 * sees it). A bound decrease beyond round-off throws {@link NumericalError} (the reference errors).
 * Returns the number of steps.
 */
export function jaakkolaJordanRowFit(row: JaakkolaJordanRow, c: number, xw: number, y: number, q: number, logDetV: number, tol: number, maxIter: number): number {
  let last = row.reset(c, xw, y, q) + 0.5 * logDetV;
  for (let i = 1; i <= maxIter; i++) {
    const bound = row.step() + 0.5 * logDetV;
    if (last > bound) {
      if (last - bound > 1e-10 * Math.abs(bound)) throw new NumericalError(`per-record variational bound decreased from ${last} to ${bound}`, { field: 'xi' });
      return i;
    }
    if (Math.abs(last - bound) < Math.abs(tol * bound)) return i;
    last = bound;
  }
  return maxIter;
}
