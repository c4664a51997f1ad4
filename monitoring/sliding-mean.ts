/**
 * Mean of the last `size` values pushed, in O(1) per value with no allocation: a ring buffer and a
 * running sum that is recomputed exactly once per `size` pushes so rounding cannot drift.
 */
export class SlidingMean {
  private readonly values: Float64Array;
  private next = 0;
  private filled = 0;
  private sum = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`window size must be a positive integer, got ${size}`);
    this.values = new Float64Array(size);
  }

  push(value: number): void {
    this.sum += value - this.values[this.next];
    this.values[this.next] = value;
    this.next++;
    if (this.filled < this.size) this.filled++;
    if (this.next === this.size) {
      this.next = 0;
      let exact = 0;
      for (let i = 0; i < this.size; i++) exact += this.values[i];
      this.sum = exact;
    }
  }

  /** Values currently in the window. */
  get count(): number {
    return this.filled;
  }

  /** Mean over the window; NaN when empty. */
  get mean(): number {
    return this.filled === 0 ? Number.NaN : this.sum / this.filled;
  }
}
