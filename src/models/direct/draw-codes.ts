import type { Rng } from '../../rng/rng.js';
import type { QuantizedWeights } from './quantized-weights.js';

/** Draws w ~ q (b independent categoricals, q row-major b×m̄) into `out` as codes: one inverse-CDF draw per weight, O(b·m̄). */
export function drawCodes(q: Float64Array, b: number, mbar: number, rng: Rng, out: QuantizedWeights): QuantizedWeights {
  for (let j = 0; j < b; j++) {
    const u = rng.nextDouble();
    let cumulative = 0;
    let code = mbar - 1;
    for (let m = 0; m < mbar - 1; m++) {
      cumulative += q[j * mbar + m];
      if (u < cumulative) { code = m; break; }
    }
    out.setCode(j, code);
  }
  return out;
}
