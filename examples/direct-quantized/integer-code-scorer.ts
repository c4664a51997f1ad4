import { ConfigError } from 'vbstream';
import type { DirectGrid } from 'vbstream';

/**
 * Scores features against 4-bit weight codes with integer arithmetic on the codes. On a DIRECT grid
 * whose atoms are the same evenly spaced values for every weight (the default
 * `linspace(−3σ_w, 3σ_w, m̄)`), w_j = lo + step·code_j, so φᵀw = lo·Σφ_j + step·Σ φ_j·code_j: the
 * packed codes are the only per-sample data and no weight is ever decoded to a float.
 */
export class IntegerCodeScorer {
  readonly lo: number;
  readonly step: number;

  constructor(private readonly grid: DirectGrid) {
    const { b, mbar, support } = grid;
    this.lo = support[0];
    this.step = (support[mbar - 1] - support[0]) / (mbar - 1);
    for (let j = 0; j < b; j++) {
      for (let k = 0; k < mbar; k++) {
        if (Math.abs(support[j * mbar + k] - (this.lo + k * this.step)) > 1e-12 * Math.max(1, Math.abs(this.lo))) {
          throw new ConfigError('integer-code scoring needs one evenly spaced support shared by every weight', { field: 'support', value: j });
        }
      }
    }
  }

  /** φᵀw for the packed 4-bit codes of one posterior sample (weight 2i in the low nibble of byte i). */
  score(phi: Float64Array, codes: Uint8Array): number {
    let sumPhi = 0;
    let sumCoded = 0;
    for (let j = 0; j < this.grid.b; j++) {
      const byte = codes[j >> 1];
      sumPhi += phi[j];
      sumCoded += phi[j] * ((j & 1) === 0 ? byte & 15 : byte >> 4);
    }
    return this.lo * sumPhi + this.step * sumCoded;
  }
}
