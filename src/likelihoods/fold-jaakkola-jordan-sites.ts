import { dot } from '../linalg/dot.js';
import { gramAccumulate } from '../linalg/gram-accumulate.js';
import { jaakkolaJordanLambda } from '../special/jaakkola-jordan-lambda.js';
import { sigmoid } from '../special/sigmoid.js';
import { jaakkolaJordanXiTerm } from './jaakkola-jordan-xi-term.js';

/**
 * Where frozen sites go: a precision (d×d), a shift (d) and the sum of their bound terms (`bound`,
 * accumulated). `labelShift`: the labels' part (y/2)·w·x goes into `shift` too (false when the shift
 * holds every record's already). `mean`: the current posterior mean, to freeze the second-order sites,
 * or undefined for the plain Jaakkola–Jordan sites. `rowScale` is scratch of at least as many values as
 * records folded at once.
 */
export interface JaakkolaJordanFoldTarget {
  readonly precision: Float64Array;
  readonly shift: Float64Array;
  readonly labelShift: boolean;
  readonly mean?: Float64Array;
  readonly rowScale: Float64Array;
  bound: number;
}

/**
 * Freezes the sites of records `from` … `from + count − 1` (row-major `x`, labels ±1, `weights` or 1,
 * local parameters `xi`) into `target`. Without `target.mean`, each is its Jaakkola–Jordan site at ξ:
 * precision 2λ(ξ)·w·xxᵀ, shift (y/2)·w·x, bound term w·(ln σ(ξ) − ξ/2 + λ(ξ)ξ²) (Drugowitsch eq.
 * 46–47, 60; 2λ(ξ) is the Pólya-gamma E[ω] of Durante & Rigon). With it, each is the second-order
 * expansion around the current logit mean m = xᵀμ of what the site contributes while its ξ is
 * re-optimised, F(m, v) = max_ξ bound = ln σ(ξ*) + (ym − ξ*)/2 with ξ*² = m² + v = ξ²: F has the frozen
 * site's slope y/2 − 2λ(ξ)m but the curvature h = 2λ(ξ) + (m²/ξ²)(σ(ξ)σ(−ξ) − 2λ(ξ)), between the
 * bound's 2λ(ξ) and the likelihood's σ(ξ)σ(−ξ) (equal to it when v = 0). So the site becomes precision
 * h·w·xxᵀ, shift (y/2 + (h − 2λ)m)·w·x, its bound term kept equal to the Jaakkola–Jordan one at the
 * current (m, v). A plain frozen site holds its logit near the mean of its time with the bound's
 * stiffness 2λ(ξ) (three times the likelihood's at ξ = 3), against every later record; the expansion
 * follows the re-optimised site to second order in the later change of m.
 */
export function foldJaakkolaJordanSites(x: Float64Array, y: Float64Array, weights: Float64Array | undefined, xi: Float64Array, from: number, count: number, d: number,
  target: JaakkolaJordanFoldTarget): void {
  const { precision, shift, rowScale, mean } = target;
  let bound = 0;
  for (let r = 0; r < count; r++) {
    const row = (from + r) * d;
    const weight = weights === undefined ? 1 : weights[from + r];
    const z = xi[from + r];
    const lambda = jaakkolaJordanLambda(z);
    let curvature = 2 * lambda;
    let scale = target.labelShift ? 0.5 * y[from + r] * weight : 0;
    let term = jaakkolaJordanXiTerm(z, lambda);
    if (mean !== undefined && z > 0) {
      const m = dot(mean, x, d, 0, row);
      const share = Math.min(1, (m * m) / (z * z));
      curvature = 2 * lambda + share * (sigmoid(z) * sigmoid(-z) - 2 * lambda);
      scale += (curvature - 2 * lambda) * m * weight;
      term += (0.5 * curvature - lambda) * (z * z - 2 * m * m);
    }
    rowScale[r] = curvature * weight;
    bound += weight * term;
    if (scale !== 0) for (let j = 0; j < d; j++) shift[j] += scale * x[row + j];
  }
  gramAccumulate(x.subarray(from * d, (from + count) * d), count, d, precision, 1, rowScale);
  target.bound += bound;
}
