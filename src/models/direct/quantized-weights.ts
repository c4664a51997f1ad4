/**
 * A posterior weight draw stored as integer codes (Evans & Nair §3.1): weight j is the atom
 * `support[j·m̄ + code_j]`. With m̄ ≤ 16 (the default 15) each code is 4 bits, two per byte (weight
 * 2i in the low nibble of byte i, 2i+1 in the high nibble); otherwise one byte per code.
 */
export class QuantizedWeights {
  readonly bits: 4 | 8;
  readonly codes: Uint8Array;

  constructor(readonly count: number, private readonly support: Float64Array, private readonly mbar: number) {
    this.bits = mbar <= 16 ? 4 : 8;
    this.codes = new Uint8Array(this.bits === 4 ? Math.ceil(count / 2) : count);
  }

  /** The code of weight j. */
  code(j: number): number {
    if (this.bits === 8) return this.codes[j];
    const byte = this.codes[j >> 1];
    return (j & 1) === 0 ? byte & 15 : byte >> 4;
  }

  /** Sets the code of weight j (0 ≤ code < m̄). */
  setCode(j: number, code: number): void {
    if (this.bits === 8) {
      this.codes[j] = code;
      return;
    }
    const i = j >> 1;
    this.codes[i] = (j & 1) === 0 ? (this.codes[i] & 0xf0) | code : (this.codes[i] & 0x0f) | (code << 4);
  }

  /** The decoded weights w_j = w̄_j[code_j]. */
  decode(out: Float64Array = new Float64Array(this.count)): Float64Array {
    for (let j = 0; j < this.count; j++) out[j] = this.support[j * this.mbar + this.code(j)];
    return out;
  }
}
