import { randomUUID } from 'node:crypto';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { restorePolicy } from '../../src/bandit/restore-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import type { BanditPartitionState } from './bandit-partition.js';
import { PendingDecisions } from './pending-decisions.js';

/** What identifies the learner's state: the model name and the two topics it joins. */
export interface PartitionStateStoreOptions {
  readonly model: string;
  readonly decisionsTopic: string;
  readonly rewardsTopic: string;
  /** Largest record written, bytes: the pending decisions are cut into chunks of at most this. */
  readonly maxRecordBytes: number;
  /** Resolved decision ids remembered per partition. */
  readonly remember: number;
}

/** Header `meta` of a partition's state record. */
interface PartitionStateMeta {
  readonly decisionsTopic: string;
  readonly rewardsTopic: string;
  readonly partition: number;
  readonly decisionsOffset: number;
  readonly rewardsOffset: number;
  readonly learned: number;
  readonly pending: number;
  /** The chunks holding the pending decisions: `model/learner/p/pending/<id>/<i>`, i < count, `bytes` in all. */
  readonly pendingChunks: { readonly id: string; readonly count: number; readonly bytes: number };
}

/** A partition's state captured at one instant, ready to be written. */
export interface EncodedPartitionState {
  readonly partition: number;
  readonly head: Uint8Array;
  readonly id: string;
  readonly chunks: readonly Uint8Array[];
}

/** A partition's policy as its state record holds it, with its counts (what the combiner reads). */
export interface PartitionPolicy {
  readonly policy: BanditPolicy;
  readonly learned: number;
  readonly pending: number;
  readonly rewardsOffset: number;
}

/** The header of the learner state of the single-learner layout (`model/learner`, one partition, pending decisions inline). */
interface SingleLearnerState {
  readonly decisionsTopic: string;
  readonly rewardsTopic: string;
  readonly decisionsOffsets: number[];
  readonly rewardsOffsets: number[];
  readonly learned: number;
  readonly pending: JsonValue;
}

const encoder = new TextEncoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
const decoder = new TextDecoder();

/**
 * Each partition's learner state in a {@link SnapshotStore}, in records no larger than
 * `maxRecordBytes` however many decisions are pending. The pending decisions (JSON) are cut into
 * chunks under keys of their own, `model/learner/p/pending/<id>/<i>`, written first; then the
 * partition's head record `model/learner/p` — its policy snapshot, both topics' offsets and the
 * chunks' id, count and length — which is the commit: a restore reads the head and exactly the
 * chunks it names, so a crash before the head is durable leaves the previous state whole. The
 * chunks of the head before (the one this store wrote or restored) are removed once the new head is
 * durable (where the store can remove); a crash in between leaves them unreferenced, never half of
 * a state. Those are found when the partition is restored (where the store can list its keys) and
 * removed once this store's first head for it is durable. A restore that finds a chunk removed under
 * it (a newer head landed while it read) reads the newer head instead.
 */
export class PartitionStateStore {
  private readonly written = new Map<number, { id: string; count: number }>();
  /** Per partition, chunk keys found at restore that its head does not name (left by a write that crashed before its head). */
  private readonly unreferenced = new Map<number, string[]>();

  constructor(private readonly store: SnapshotStore, readonly options: PartitionStateStoreOptions) {}

  headKey(partition: number): string {
    return `${this.options.model}/learner/${partition}`;
  }

  private chunkKey(partition: number, id: string, i: number): string {
    return `${this.chunkPrefix(partition)}${id}/${i}`;
  }

  private chunkPrefix(partition: number): string {
    return `${this.options.model}/learner/${partition}/pending/`;
  }

  /** The state as it is now, encoded (synchronously: no reward is half applied in it). */
  encode(partition: number, state: BanditPartitionState): EncodedPartitionState {
    const { decisionsTopic, rewardsTopic, maxRecordBytes } = this.options;
    const pending = encoder.encode(JSON.stringify(state.pending.toJson()));
    const id = randomUUID();
    const chunks: Uint8Array[] = [];
    for (let start = 0; start < pending.length; start += maxRecordBytes) chunks.push(pending.subarray(start, start + maxRecordBytes));
    const meta: PartitionStateMeta = {
      decisionsTopic, rewardsTopic, partition, decisionsOffset: state.decisionsNext, rewardsOffset: state.rewardsNext, learned: state.learned, pending: state.pending.size,
      pendingChunks: { id, count: chunks.length, bytes: pending.length },
    };
    const head = encodeSnapshot(state.policy.snapshot(), meta as unknown as { [key: string]: JsonValue });
    if (head.byteLength > maxRecordBytes) throw new ConfigError(`the policy snapshot of partition ${partition} takes ${head.byteLength} bytes, more than maxStateRecordBytes (${maxRecordBytes})`, { field: 'maxStateRecordBytes', value: maxRecordBytes });
    return { partition, head, id, chunks };
  }

  /** Writes the chunks, then the head (the commit), then removes the chunks of the previous head this store wrote or restored, and those no head named at restore. */
  async write(state: EncodedPartitionState): Promise<void> {
    const { partition, id, chunks } = state;
    for (const [i, chunk] of chunks.entries()) await this.store.save(this.chunkKey(partition, id, i), chunk);
    await this.store.save(this.headKey(partition), state.head);
    const previous = this.written.get(partition);
    this.written.set(partition, { id, count: chunks.length });
    if (this.store.remove === undefined) return;
    if (previous !== undefined) for (let i = 0; i < previous.count; i++) await this.store.remove(this.chunkKey(partition, previous.id, i));
    for (const key of this.unreferenced.get(partition) ?? []) await this.store.remove(key);
    this.unreferenced.delete(partition);
  }

  /**
   * The state of a partition, or undefined for a fresh one. With one partition, the state of the
   * single-learner layout (`model/learner`, pending decisions inline) is read when there is no head
   * yet, so an upgrade resumes where the single learner stopped.
   */
  async read(partition: number, partitions: number): Promise<BanditPartitionState | undefined> {
    let bytes = await this.store.latest(this.headKey(partition));
    if (bytes === undefined) return partitions === 1 ? this.readSingleLearner() : undefined;
    for (;;) {
      const { policy, meta } = this.decodeHead(partition, bytes);
      const json = await this.readChunks(partition, meta.pendingChunks);
      if (json === undefined) {
        // A chunk is gone: a newer head superseded this one meanwhile (its writer removed the chunks); read that one, else the state is broken.
        const newer: Uint8Array | undefined = await this.store.latest(this.headKey(partition));
        if (newer !== undefined && !sameBytes(newer, bytes)) {
          bytes = newer;
          continue;
        }
        throw new SnapshotError(`learner state ${this.headKey(partition)}: a pending chunk of ${meta.pendingChunks.id} is missing or of the wrong length`, { source: this.options.rewardsTopic, field: 'pendingChunks' });
      }
      const pending = PendingDecisions.fromJson(JSON.parse(decoder.decode(json)) as JsonValue, this.options.remember);
      this.written.set(partition, { id: meta.pendingChunks.id, count: meta.pendingChunks.count });
      await this.findUnreferenced(partition, meta.pendingChunks.id);
      return { policy, pending, decisionsNext: meta.decisionsOffset, rewardsNext: meta.rewardsOffset, learned: meta.learned };
    }
  }

  /** Notes the partition's chunk keys of another id than the restored head's, to remove after the next write. */
  private async findUnreferenced(partition: number, id: string): Promise<void> {
    if (this.store.keys === undefined) return;
    const prefix = this.chunkPrefix(partition);
    const mine = `${prefix}${id}/`;
    this.unreferenced.set(partition, (await this.store.keys()).filter((key) => key.startsWith(prefix) && !key.startsWith(mine)));
  }

  /** The pending decisions' JSON from the chunks a head names, or undefined when one is missing or the lengths do not add up. */
  private async readChunks(partition: number, chunks: PartitionStateMeta['pendingChunks']): Promise<Uint8Array | undefined> {
    const json = new Uint8Array(chunks.bytes);
    let at = 0;
    for (let i = 0; i < chunks.count; i++) {
      const chunk = await this.store.latest(this.chunkKey(partition, chunks.id, i));
      if (chunk === undefined || at + chunk.length > chunks.bytes) return undefined;
      json.set(chunk, at);
      at += chunk.length;
    }
    return at === chunks.bytes ? json : undefined;
  }

  /** A partition's policy and counts from its head alone (the pending decisions unread), or undefined when it has no state yet. */
  async readPolicy(partition: number): Promise<PartitionPolicy | undefined> {
    const bytes = await this.store.latest(this.headKey(partition));
    if (bytes === undefined) return undefined;
    const { policy, meta } = this.decodeHead(partition, bytes);
    return { policy, learned: meta.learned, pending: meta.pending, rewardsOffset: meta.rewardsOffset };
  }

  private decodeHead(partition: number, bytes: Uint8Array): { policy: BanditPolicy; meta: PartitionStateMeta } {
    const { snapshot, meta: raw } = decodeSnapshot(bytes);
    const meta = raw as unknown as PartitionStateMeta;
    const { decisionsTopic, rewardsTopic } = this.options;
    if (meta.decisionsTopic !== decisionsTopic || meta.rewardsTopic !== rewardsTopic || meta.partition !== partition || typeof meta.pendingChunks?.id !== 'string') {
      throw new SnapshotError(`learner state ${this.headKey(partition)} is of ${meta.decisionsTopic} / ${meta.rewardsTopic} partition ${meta.partition}, not ${decisionsTopic} / ${rewardsTopic} partition ${partition}`, { source: rewardsTopic, field: 'meta' });
    }
    return { policy: restorePolicy(snapshot), meta };
  }

  private async readSingleLearner(): Promise<BanditPartitionState | undefined> {
    const key = `${this.options.model}/learner`;
    const bytes = await this.store.latest(key);
    if (bytes === undefined) return undefined;
    const { snapshot, meta } = decodeSnapshot(bytes);
    const state = meta as unknown as SingleLearnerState;
    const { decisionsTopic, rewardsTopic } = this.options;
    if (state.decisionsTopic !== decisionsTopic || state.rewardsTopic !== rewardsTopic || state.rewardsOffsets?.length !== 1) {
      throw new SnapshotError(`learner state ${key} is of ${state.decisionsTopic} / ${state.rewardsTopic} with ${state.rewardsOffsets?.length} partitions, not ${decisionsTopic} / ${rewardsTopic} with 1`, { source: rewardsTopic, field: 'meta' });
    }
    return { policy: restorePolicy(snapshot), pending: PendingDecisions.fromJson(state.pending, this.options.remember), decisionsNext: state.decisionsOffsets[0], rewardsNext: state.rewardsOffsets[0], learned: state.learned };
  }
}
