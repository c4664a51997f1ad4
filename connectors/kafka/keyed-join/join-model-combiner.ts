import { encodeSnapshot } from '../../../src/core/encode-snapshot.js';
import { snapshotKey } from '../snapshot-key.js';
import type { SnapshotStore } from '../snapshot-store.js';
import type { CombinedJoinModel } from './combined-join-model.js';
import type { JoinStateStore } from './join-state-store.js';
import type { KeyedJoin } from './keyed-join.js';

/**
 * The keyed-join counterpart of `PosteriorCombiner`: reads the latest durable state of every
 * partition (its head record: the partition's own model) and merges the models into a fresh one,
 * partition by partition in order (the join's `merge`: each family's, the SDA-Bayes combination),
 * so the result is a function of the partitions' states alone, whichever instance combines them.
 * One partition's model is published as it is (no merge: every model works on one partition).
 * `publish` writes it under `model/global` with the join's meta, where the readers hot-swap it.
 */
export class JoinModelCombiner<L, M> {
  constructor(private readonly states: JoinStateStore<L, M>, private readonly join: Pick<KeyedJoin<L, M>, 'createModel' | 'merge' | 'snapshot' | 'globalMeta'>, readonly options: { readonly model: string; readonly partitions: number }) {
    JoinModelCombiner.check(join, options.partitions);
  }

  /** Refuses, with the join's `ConfigError`, a model that cannot merge when there is more than one partition. */
  static check<M>(join: Pick<KeyedJoin<unknown, M>, 'createModel' | 'merge'>, partitions: number): void {
    if (partitions > 1) join.merge(join.createModel(), join.createModel());
  }

  async combine(): Promise<CombinedJoinModel<M>> {
    const { partitions } = this.options;
    const merged: number[] = [];
    const outcomesOffsets = new Array<number>(partitions).fill(0);
    let model = partitions === 1 ? undefined : this.join.createModel();
    let learned = 0;
    let pending = 0;
    for (let p = 0; p < partitions; p++) {
      const state = await this.states.readModel(p);
      if (state === undefined) continue;
      if (model === undefined) model = state.model;
      else this.join.merge(model, state.model);
      merged.push(p);
      learned += state.learned;
      pending += state.pending;
      outcomesOffsets[p] = state.outcomesOffset;
    }
    return { model: model ?? this.join.createModel(), partitions: merged, learned, pending, outcomesOffsets };
  }

  /** Saves a combined model under `model/global`, with the join's meta. */
  async publish(store: SnapshotStore, combined: CombinedJoinModel<M>): Promise<void> {
    await store.save(snapshotKey(this.options.model, 'global'), encodeSnapshot(this.join.snapshot(combined.model), this.join.globalMeta(combined)));
  }
}
