import { matrixDeterminantLemma } from '../linalg/matrix-determinant-lemma.js';
import { jaakkolaJordanLambda } from '../special/jaakkola-jordan-lambda.js';
import { log1pexp } from '../special/log1pexp.js';

/**
 * The ξ iteration for one record against a Gaussian q(w) = N(w, V) with the Jaakkola–Jordan bound
 * (Drugowitsch eq. 82–91 for learning, eq. 96–98 for prediction), reduced to scalars: given only
 * c = xᵀVx, xᵀw, the label y ∈ {±1} and q = wᵀV⁻¹w, every quantity of an iteration — ξ² =
 * xᵀ(V_ξ + w_ξw_ξᵀ)x, w_ξᵀV_ξ⁻¹w_ξ and ln|V_ξ|/|V| — is O(1), because V_ξ = V − a·Vx·(Vx)ᵀ with
 * a = 2λ(ξ)/(1 + 2λ(ξ)c) and w_ξ = m − a·s·Vx, where m = w + (y/2)·Vx and s = xᵀm. The caller pays
 * O(p) for xᵀw and O(p²) for Vx once per record. Reused across records: it allocates nothing.
 */
export class JaakkolaJordanRow {
  /** xᵀVx. */
  c = 0;
  /** s = xᵀw + y·c/2. */
  s = 0;
  /** mᵀ(V⁻¹w + y·x/2) = q + y·xᵀw + c/4. */
  mt = 0;
  xi = 0;
  lambda = 0.125;
  /** a = 2λ/(1 + 2λc): V_ξ = V − a·Vx·(Vx)ᵀ. */
  a = 0;
  /** w_ξᵀ V_ξ⁻¹ w_ξ. */
  wt = 0;
  /** ln|V_ξ| − ln|V| = −ln(1 + 2λc) (eq. 87, 97). */
  logDetRatio = 0;

  /** Starts at ξ = 0, λ = 1/8 (eq. 88–90) and returns that step's bound, −ln 2 + ½(ln|V_ξ|/|V| + w_ξᵀV_ξ⁻¹w_ξ). */
  reset(c: number, xw: number, y: number, q: number): number {
    this.c = c;
    this.s = xw + 0.5 * y * c;
    this.mt = q + y * xw + 0.25 * c;
    this.xi = 0;
    this.lambda = 0.125;
    this.a = 1 / (4 + c);
    this.wt = this.mt - this.a * this.s * this.s;
    this.logDetRatio = -Math.log1p(0.25 * c);
    return 0.5 * (this.logDetRatio + this.wt) - Math.LN2;
  }

  /**
   * One ξ update (eq. 68): ξ from the current (V_ξ, w_ξ), then λ(ξ), a, w_ξᵀV_ξ⁻¹w_ξ and the log-det
   * ratio; returns the record's bound without ln|V|: ½(ln|V_ξ|/|V| + w_ξᵀV_ξ⁻¹w_ξ − ξ) − ln(1 + e^−ξ) + λξ² (eq. 91).
   */
  step(): number {
    const { c, s } = this;
    const xwXi = s * (1 - this.a * c);
    this.xi = Math.sqrt(Math.max(0, c - this.a * c * c + xwXi * xwXi));
    this.lambda = jaakkolaJordanLambda(this.xi);
    this.a = (2 * this.lambda) / (1 + 2 * this.lambda * c);
    this.wt = this.mt - this.a * s * s;
    this.logDetRatio = -matrixDeterminantLemma(0, 2 * this.lambda, c);
    return 0.5 * (this.logDetRatio + this.wt - this.xi) - log1pexp(-this.xi) + this.lambda * this.xi * this.xi;
  }

  /** log p(y = 1 | x) under the bound at the current ξ (the vb_logit_pred_incr output, in log form). */
  logPredictive(q: number): number {
    return -log1pexp(-this.xi) + 0.5 * this.logDetRatio - 0.5 * this.xi + this.lambda * this.xi * this.xi + 0.5 * (this.wt - q);
  }
}
