/** Scratch kept after a fit up to this many values (4 MiB: an ARD fit up to d = 418, a plain one up to d = 724); a larger one is released. */
const RETAINED_VALUES = 1 << 19;

/**
 * This thread's scratch of `fitVbLinear`'s passes (V_N⁻¹, the kept blocks), kept between fits so that a
 * fit allocates nothing of d² itself; the contents are left over from an earlier fit: every pass writes what it reads
 * before reading it.
 */
class PassScratch {
  private buffer = new Float64Array(0);

  /** At least `doubles` values (grown when smaller). */
  take(doubles: number): Float64Array {
    if (this.buffer.length < doubles) this.buffer = new Float64Array(doubles);
    return this.buffer;
  }

  /** Releases the buffer when it holds more than {@link RETAINED_VALUES} (called after each fit). */
  trim(): void {
    if (this.buffer.length > RETAINED_VALUES) this.buffer = new Float64Array(0);
  }
}

/** The one {@link PassScratch} of this thread. */
export const passScratch = new PassScratch();
