import { gaussHermite } from '../../special/gauss-hermite.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { normalLogPdf } from '../../special/normal-log-pdf.js';
import { sigmoid } from '../../special/sigmoid.js';

const HERMITE_NODES = 64;
const HERMITE_MAX_VARIANCE = 1;
const STRIP_STEP = 0.6;
const HALF_WIDTH = 9;
/** Above this variance the normal limit replaces the strip (whose node count grows as √v). */
const LIMIT_VARIANCE = 1e8;
const PI_SQUARED_OVER_6 = (Math.PI * Math.PI) / 6;
const INV_SQRT_PI = 1 / Math.sqrt(Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * E[σ(η)] for η ~ N(m, v), to about 1e-13 absolute: p(y = 1 | x) under q(β) with m = xᵀμ, v = xᵀΣx.
 * For v ≤ 1 a 64-node Gauss–Hermite rule; for larger v Gauss–Hermite converges slowly (σ has poles
 * at η = ±iπ, only π/√(2v) from the real axis in the rule's variable), so the trapezoid rule on
 * z = (η − m)/√v over |z| ≤ 9 is used with step h = 0.6/max(1, √v): the integrand is analytic in the
 * strip |Im z| < π/√v, so the error is O(exp(−2π²/(h√v))) ≈ 5e-15, and the tails beyond 9 sd are 2e-19.
 * Past v = 1e8 (and for v = ∞, a feature near 1e200) σ is a step on the scale of q, and
 * E[σ(η)] = Φ(z) − (π²/6)(z/v)φ(z) + O(v⁻²), z = m/√v (σ − H is odd with ∫t(σ − H) = −π²/6), so the
 * work stays bounded (the strip would take 15√v nodes).
 */
export function expectedSigmoid(m: number, v: number): number {
  if (!(v > 0)) return sigmoid(m);
  if (v > LIMIT_VARIANCE) {
    const z = m / Math.sqrt(v);
    return normalCdf(z) - PI_SQUARED_OVER_6 * (z / v) * Math.exp(normalLogPdf(z, 0, 1));
  }
  if (v <= HERMITE_MAX_VARIANCE) {
    const { nodes, weights } = gaussHermite(HERMITE_NODES);
    const scale = Math.sqrt(2 * v);
    let sum = 0;
    for (let k = 0; k < HERMITE_NODES; k++) sum += weights[k] * sigmoid(m + scale * nodes[k]);
    return sum * INV_SQRT_PI;
  }
  const s = Math.sqrt(v);
  const h = STRIP_STEP / s;
  const half = Math.ceil(HALF_WIDTH / h);
  let sum = 0;
  for (let k = -half; k <= half; k++) {
    const z = k * h;
    sum += Math.exp(-0.5 * z * z) * sigmoid(m + s * z);
  }
  return sum * h * INV_SQRT_2PI;
}
