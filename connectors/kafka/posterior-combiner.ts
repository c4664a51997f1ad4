import type { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFamily } from '../../src/registry.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** A partition whose snapshot the combiner could not use, and why. */
export interface SkippedPartition {
  readonly partition: number;
  readonly reason: string;
}

/** The merged global posterior and what it was built from. */
export interface GlobalPosterior {
  readonly model: OnlineModel;
  /** Next offset per partition whose snapshot went in (partition number as a string key). */
  readonly offsets: { readonly [partition: string]: number };
  /** The partitions merged, ascending (those with a snapshot that fits). */
  readonly partitions: readonly number[];
  /** Partitions asked for whose snapshot was present but did not fit (another topic or partition, another family or dimension, unreadable). */
  readonly skipped: readonly SkippedPartition[];
  /** Records behind the posterior. */
  readonly records: number;
  /** Identifies the data the posterior has seen: `p:offset` pairs joined by commas. */
  readonly version: string;
}

/** Options of {@link PosteriorCombiner}. */
export interface PosteriorCombinerOptions {
  readonly model: string;
  readonly family: string;
  readonly dim: number;
  readonly familyOptions?: unknown;
  readonly topic: string;
  /** Refuse to combine (throw) when a partition's snapshot does not fit, instead of combining the others; default false. */
  readonly requireAll?: boolean;
  /** Where skipped partitions are counted (`vbstream_combiner_skipped_partitions_total{reason}`). */
  readonly metrics?: PipelineMetrics;
}

/**
 * Folds the latest per-partition posteriors of an additive family into one global posterior
 * (streaming distributed Bayes, Broderick et al. 2013): starting from a model with no data, each
 * partition's model is merged in, which for the exact families (`vb-linear`, `direct`) equals one
 * model fed every partition's records, and for natural-parameter families adds each partition's
 * delta from the common prior. A partition whose snapshot does not fit is never silently dropped:
 * it is listed in `skipped` (and counted in the metrics), the published posterior names the
 * partitions it holds, and with `requireAll` the combination is refused. `publish` writes it to the
 * store under `model/global`, where scoring services read it (`readGlobalPosterior`).
 */
export class PosteriorCombiner {
  constructor(private readonly store: SnapshotStore, readonly options: PosteriorCombinerOptions) {
    PosteriorCombiner.check(options);
  }

  /** Refuses, with a `ConfigError`, an unknown family, bad options, or a family that is not additive (no global posterior). */
  static check(options: Pick<PosteriorCombinerOptions, 'family' | 'dim' | 'familyOptions'>): void {
    const probe = getFamily(options.family).create(options.dim, options.familyOptions);
    if (typeof probe.merge !== 'function') throw new ConfigError(`family ${options.family} is not additive (no merge); it has no global posterior`, { field: 'family', value: options.family });
  }

  /** Merges the latest snapshot of each of `partitions` (a partition with none has no data yet). */
  async combine(partitions: readonly number[]): Promise<GlobalPosterior> {
    const family = getFamily(this.options.family);
    const global = family.create(this.options.dim, this.options.familyOptions);
    const offsets: { [partition: string]: number } = {};
    const merged: number[] = [];
    const skipped: SkippedPartition[] = [];
    for (const p of [...partitions].sort((a, b) => a - b)) {
      const bytes = await this.store.latest(snapshotKey(this.options.model, p));
      if (bytes === undefined) continue;
      try {
        const { snapshot, meta } = decodeSnapshot(bytes);
        if (meta.topic !== this.options.topic || meta.partition !== p || typeof meta.nextOffset !== 'number') {
          throw new ConfigError(`snapshot is of ${JSON.stringify(meta.topic)} partition ${JSON.stringify(meta.partition)}, not ${this.options.topic} partition ${p}`, { field: 'meta' });
        }
        (global.merge as (other: OnlineModel) => void)(family.restore(snapshot));
        offsets[String(p)] = meta.nextOffset;
        merged.push(p);
      } catch (error) {
        const reason = error instanceof VbstreamError ? error.message : String(error);
        if (this.options.requireAll) throw new ConfigError(`cannot combine ${this.options.model}: partition ${p}: ${reason}`, { field: 'partition', value: p }, { cause: error });
        skipped.push({ partition: p, reason });
        this.options.metrics?.recordCombinerSkipped(error instanceof VbstreamError ? error.kind : 'unknown');
      }
    }
    const version = Object.entries(offsets).map(([p, o]) => `${p}:${o}`).join(',');
    return { model: global, offsets, partitions: merged, skipped, records: global.recordsSeen, version };
  }

  /** Saves a combined posterior under `model/global` (offsets, partitions, skipped ones, records and version in its `meta`). */
  async publish(combined: GlobalPosterior): Promise<void> {
    const meta = {
      model: this.options.model, topic: this.options.topic, offsets: combined.offsets, partitions: [...combined.partitions],
      skipped: combined.skipped.map((s) => ({ partition: s.partition, reason: s.reason })), records: combined.records, version: combined.version,
    };
    await this.store.save(snapshotKey(this.options.model, 'global'), encodeSnapshot(combined.model.snapshot(), meta));
  }
}
