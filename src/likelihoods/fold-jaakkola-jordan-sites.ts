import { gramAccumulate } from '../linalg/gram-accumulate.js';
import { jaakkolaJordanLambda } from '../special/jaakkola-jordan-lambda.js';
import { jaakkolaJordanXiTerm } from './jaakkola-jordan-xi-term.js';

/**
 * Where frozen sites go: a precision (d×d), if given a shift (d), and the sum of their bound terms
 * (`bound`, accumulated); `rowScale` is scratch of at least as many values as records folded at once.
 */
export interface JaakkolaJordanFoldTarget {
  readonly precision: Float64Array;
  readonly shift?: Float64Array;
  readonly rowScale: Float64Array;
  bound: number;
}

/**
 * Freezes the Jaakkola–Jordan sites of records `from` … `from + count − 1` (row-major `x`, labels ±1,
 * `weights` or 1, local parameters `xi`) into `target`: precision += Σ 2λ(ξ)·w·xxᵀ, shift += Σ (y/2)·w·x
 * (Drugowitsch eq. 46–47; 2λ(ξ) is the Pólya-gamma E[ω] of Durante & Rigon), and bound += the sites'
 * terms Σ w·(ln σ(ξ) − ξ/2 + λ(ξ)ξ²) (Drugowitsch eq. 60). Reads the records, does not move them.
 */
export function foldJaakkolaJordanSites(x: Float64Array, y: Float64Array, weights: Float64Array | undefined, xi: Float64Array, from: number, count: number, d: number,
  target: JaakkolaJordanFoldTarget): void {
  const { precision, shift, rowScale } = target;
  let bound = 0;
  for (let r = 0; r < count; r++) {
    const weight = weights === undefined ? 1 : weights[from + r];
    const lambda = jaakkolaJordanLambda(xi[from + r]);
    rowScale[r] = 2 * lambda * weight;
    bound += weight * jaakkolaJordanXiTerm(xi[from + r], lambda);
    if (shift !== undefined) {
      const scale = 0.5 * y[from + r] * weight;
      for (let j = 0; j < d; j++) shift[j] += scale * x[(from + r) * d + j];
    }
  }
  gramAccumulate(x.subarray(from * d, (from + count) * d), count, d, precision, 1, rowScale);
  target.bound += bound;
}
