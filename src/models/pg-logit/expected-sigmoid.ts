import { gaussHermite } from '../../special/gauss-hermite.js';
import { gaussLegendre } from '../../special/gauss-legendre.js';
import { normalCdf } from '../../special/normal-cdf.js';
import { sigmoid } from '../../special/sigmoid.js';

const HERMITE_NODES = 64;
const HERMITE_MAX_VARIANCE = 1;
const STRIP_STEP = 0.6;
const HALF_WIDTH = 9;
/** Beyond this sd the strip rule would need more than 1,500 nodes (30·√v): the step decomposition takes over. */
const STRIP_MAX_SD = 50;
const STEP_NODES = 64;
/** σ(−40) ≈ 4e-18: where the step correction's integral is cut. */
const STEP_TAIL = 40;
const INV_SQRT_PI = 1 / Math.sqrt(Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * E[σ(η)] for η ~ N(m, v), to about 1e-13 absolute, at a cost independent of v: p(y = 1 | x) under
 * q(β) with m = xᵀμ, v = xᵀΣx. For v ≤ 1 a 64-node Gauss–Hermite rule; for larger v Gauss–Hermite
 * converges slowly (σ has poles at η = ±iπ, only π/√(2v) from the real axis in the rule's variable),
 * so the trapezoid rule on z = (η − m)/√v over |z| ≤ 9 is used with step h = 0.6/max(1, √v): the
 * integrand is analytic in the strip |Im z| < π/√v, so the error is O(exp(−2π²/(h√v))) ≈ 5e-15, and
 * the tails beyond 9 sd are 2e-19. That rule takes 30·√v nodes, so beyond √v = 50 (a large input,
 * e.g. a feature of 1e6) σ is a step on the scale of η's density instead:
 * E[σ(η)] = Φ(m/s) + E[σ(η) − 1{η > 0}] = Φ(m/s) + (1/s)∫₀^∞ σ(−t)[φ((t + m)/s) − φ((t − m)/s)] dt
 * with s = √v, the integral by 64-node Gauss–Legendre on [0, 40] (σ is analytic within π of the
 * interval; the part beyond 40 is below 4e-18/s).
 */
export function expectedSigmoid(m: number, v: number): number {
  if (!(v > 0)) return sigmoid(m);
  if (v <= HERMITE_MAX_VARIANCE) {
    const { nodes, weights } = gaussHermite(HERMITE_NODES);
    const scale = Math.sqrt(2 * v);
    let sum = 0;
    for (let k = 0; k < HERMITE_NODES; k++) sum += weights[k] * sigmoid(m + scale * nodes[k]);
    return sum * INV_SQRT_PI;
  }
  const s = Math.sqrt(v);
  if (s > STRIP_MAX_SD) {
    const { nodes, weights } = gaussLegendre(STEP_NODES);
    const half = STEP_TAIL / 2;
    let sum = 0;
    for (let k = 0; k < STEP_NODES; k++) {
      const t = half + half * nodes[k];
      const above = (t + m) / s;
      const below = (t - m) / s;
      sum += weights[k] * sigmoid(-t) * (Math.exp(-0.5 * above * above) - Math.exp(-0.5 * below * below));
    }
    return normalCdf(m / s) + (sum * half * INV_SQRT_2PI) / s;
  }
  const h = STRIP_STEP / s;
  const half = Math.ceil(HALF_WIDTH / h);
  let sum = 0;
  for (let k = -half; k <= half; k++) {
    const z = k * h;
    sum += Math.exp(-0.5 * z * z) * sigmoid(m + s * z);
  }
  return sum * h * INV_SQRT_2PI;
}
