/**
 * A histogram accumulator on plain arrays: non-cumulative counts per bucket (upper bounds
 * inclusive, as Prometheus's `le`, with a last bucket for values above the largest bound), their
 * sum and count. Observing costs a short scan and no allocation, so it can sit on a per-record
 * path; `PipelineMetrics` exports the totals as a Prometheus histogram at scrape time.
 */
export class BucketCounts {
  /** counts[i] = observations in (bounds[i-1], bounds[i]]; counts[bounds.length] = above the last bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[]) {
    for (let i = 1; i < bounds.length; i++) {
      if (!(bounds[i] > bounds[i - 1])) throw new RangeError(`bucket bounds must increase strictly, got ${bounds[i - 1]} then ${bounds[i]}`);
    }
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Adds `times` observations of `value` (NaN is ignored). */
  observe(value: number, times = 1): void {
    if (Number.isNaN(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    this.counts[i] += times;
    this.sum += value * times;
    this.count += times;
  }

  /** Adds another accumulator's counts (same bounds), e.g. a delta from a worker. */
  add(counts: ArrayLike<number>, sum: number, count: number): void {
    if (counts.length !== this.counts.length) throw new RangeError(`expected ${this.counts.length} bucket counts, got ${counts.length}`);
    for (let i = 0; i < counts.length; i++) this.counts[i] += counts[i];
    this.sum += sum;
    this.count += count;
  }

  clear(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}
