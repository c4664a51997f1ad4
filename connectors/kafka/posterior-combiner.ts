import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';

/** The merged global posterior and what it was built from. */
export interface GlobalPosterior {
  readonly model: OnlineModel;
  /** Next offset per partition whose snapshot went in (partition number as a string key). */
  readonly offsets: { readonly [partition: string]: number };
  /** Records behind the posterior. */
  readonly records: number;
  /** Identifies the data the posterior has seen: `p:offset` pairs joined by commas. */
  readonly version: string;
}

/**
 * Folds the latest per-partition posteriors of an additive family into one global posterior
 * (streaming distributed Bayes, Broderick et al. 2013): starting from a model with no data, each
 * partition's model is merged in, which for the exact families (`vb-linear`, `direct`) equals one
 * model fed every partition's records, and for natural-parameter families adds each partition's
 * delta from the common prior. `publish` writes it to the store under `model/global`, with the
 * offsets and version in the snapshot `meta`, where scoring services read it (`readGlobalPosterior`).
 */
export class PosteriorCombiner {
  constructor(private readonly store: SnapshotStore, readonly options: { model: string; family: string; dim: number; familyOptions?: unknown; topic: string }) {
    const probe = getFamily(options.family).create(options.dim, options.familyOptions);
    if (typeof probe.merge !== 'function') throw new ConfigError(`family ${options.family} is not additive (no merge); it has no global posterior`, { field: 'family', value: options.family });
  }

  /** Merges the latest snapshot of each of `partitions` (a partition with none has no data yet). */
  async combine(partitions: readonly number[]): Promise<GlobalPosterior> {
    const family = getFamily(this.options.family);
    const global = family.create(this.options.dim, this.options.familyOptions);
    const offsets: { [partition: string]: number } = {};
    for (const p of partitions) {
      const bytes = await this.store.latest(snapshotKey(this.options.model, p));
      if (bytes === undefined) continue;
      const { snapshot, meta } = decodeSnapshot(bytes);
      if (meta.topic !== this.options.topic || meta.partition !== p || typeof meta.nextOffset !== 'number') continue;
      (global.merge as (other: OnlineModel) => void)(family.restore(snapshot));
      offsets[String(p)] = meta.nextOffset;
    }
    const version = Object.entries(offsets).map(([p, o]) => `${p}:${o}`).join(',');
    return { model: global, offsets, records: global.recordsSeen, version };
  }

  /** Saves a combined posterior under `model/global` (offsets, records and version in its `meta`). */
  async publish(combined: GlobalPosterior): Promise<void> {
    const meta = { model: this.options.model, topic: this.options.topic, offsets: combined.offsets, records: combined.records, version: combined.version };
    await this.store.save(snapshotKey(this.options.model, 'global'), encodeSnapshot(combined.model.snapshot(), meta));
  }
}
