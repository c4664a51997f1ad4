import { Histogram, type LabelValues } from 'prom-client';
import { BucketCounts } from './bucket-counts.js';
import type { HistogramDelta } from './metric-delta.js';

/** Configuration of an `AccumulatedHistogram`: prom-client's, with the buckets required. */
export interface AccumulatedHistogramConfig<T extends string> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly T[];
  readonly buckets: readonly number[];
  /** Called before each export, to pull pending deltas in. */
  readonly beforeExport?: () => void;
}

type ExportValue = { labels: Record<string, string | number>; sharedLabels: Record<string, string | number>; value: number; metricName: string };

/**
 * A prom-client `Histogram` fed with whole bucket-count deltas (`add`) instead of one `observe`
 * per value, so that observations made in worker threads — or on a per-record path, where
 * prom-client's `observe` costs about a microsecond — can be accumulated on plain arrays and
 * exported at scrape time. It renders the standard `_bucket{le}`, `_sum` and `_count` series of
 * what `add` received only (the inherited `observe`/`labels`/`startTimer` do not reach the output).
 * Register it with `registry.registerMetric`.
 */
export class AccumulatedHistogram<T extends string> extends Histogram<T> {
  private readonly series = new Map<string, { labels: LabelValues<T>; counts: BucketCounts }>();
  private readonly bounds: readonly number[];
  private readonly beforeExport: (() => void) | undefined;

  constructor(config: AccumulatedHistogramConfig<T>) {
    super({ name: config.name, help: config.help, labelNames: config.labelNames, buckets: [...config.buckets], registers: [] });
    this.bounds = config.buckets;
    this.beforeExport = config.beforeExport;
  }

  /** Adds a delta (non-cumulative counts, one more than the buckets) to the series with `labels`. */
  add(labels: LabelValues<T>, delta: HistogramDelta): void {
    const key = JSON.stringify(labels);
    let entry = this.series.get(key);
    if (entry === undefined) {
      entry = { labels, counts: new BucketCounts(this.bounds) };
      this.series.set(key, entry);
    }
    entry.counts.add(delta.counts, delta.sum, delta.count);
  }

  /** What prom-client's registry renders (it prefers this to `get`); `get` splays the same values. */
  async getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportValue[]; aggregator: 'sum' }> {
    this.beforeExport?.();
    const name = (this as unknown as { name: string }).name;
    const values: ExportValue[] = [];
    for (const { labels, counts } of this.series.values()) {
      const shared = labels as Record<string, string | number>;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += counts.counts[i];
        values.push({ labels: { le }, sharedLabels: shared, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: shared, value: counts.count, metricName: `${name}_bucket` });
      values.push({ labels: {}, sharedLabels: shared, value: counts.sum, metricName: `${name}_sum` });
      values.push({ labels: {}, sharedLabels: shared, value: counts.count, metricName: `${name}_count` });
    }
    return { name, help: (this as unknown as { help: string }).help, type: 'histogram', values, aggregator: 'sum' };
  }
}
