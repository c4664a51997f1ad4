import type { Rng } from '../../rng/rng.js';
import { drawCodes } from './draw-codes.js';
import type { DirectPosterior } from './posterior.js';
import { QuantizedWeights } from './quantized-weights.js';
import type { DirectGrid } from './state.js';

/** Draws w ~ q as packed codes: for a mixture a component k ~ π first, then w ~ q_k (b categoricals). */
export function drawMixtureCodes(components: DirectPosterior['components'], grid: DirectGrid, rng: Rng): QuantizedWeights {
  const { b, mbar, support } = grid;
  const r = components.weights.length;
  let k = r - 1;
  if (r > 1) {
    let u = rng.nextDouble();
    for (let i = 0; i < r - 1; i++) { u -= components.weights[i]; if (u < 0) { k = i; break; } }
  }
  return drawCodes(components.probs.subarray(k * b * mbar, (k + 1) * b * mbar), b, mbar, rng, new QuantizedWeights(b, support, mbar));
}
