import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../../src/core/config-error.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../../src/core/encode-snapshot.js';
import type { JsonValue } from '../../../src/core/model-snapshot.js';
import { SnapshotError } from '../../../src/core/snapshot-error.js';
import type { SnapshotStore } from '../snapshot-store.js';
import type { JoinState } from './join-state.js';
import type { JoinStateCodec, JoinStateIdentity } from './join-state-codec.js';
import { PendingJoins } from './pending-joins.js';

/** Options of {@link JoinStateStore}. */
export interface JoinStateStoreOptions extends JoinStateIdentity {
  /** Largest record written, bytes: the pending records are cut into chunks of at most this. */
  readonly maxRecordBytes: number;
}

/** A partition's state captured at one instant, ready to be written. */
export interface EncodedJoinState {
  readonly partition: number;
  readonly head: Uint8Array;
  readonly id: string;
  readonly chunks: readonly Uint8Array[];
}

/** A partition's model as its head record holds it, with its counts (what the combiner reads). */
export interface PartitionModel<M> {
  readonly model: M;
  readonly learned: number;
  readonly pending: number;
  readonly outcomesOffset: number;
}

/** The chunks holding a head's pending records: `model/learner/p/pending/<id>/<i>`, i < count, `bytes` in all. */
interface PendingChunks {
  readonly id: string;
  readonly count: number;
  readonly bytes: number;
}

/** A head's meta, its fields under the names of the join's vocabulary. */
interface HeadMeta {
  readonly loggedTopic: unknown;
  readonly outcomesTopic: unknown;
  readonly partition: unknown;
  readonly loggedOffset: number;
  readonly outcomesOffset: number;
  readonly learned: number;
  readonly pending: number;
  readonly pendingChunks: PendingChunks;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Each partition's join state in a {@link SnapshotStore}, in records no larger than
 * `maxRecordBytes` however many logged records are pending. The pending records (JSON) are cut into
 * chunks under keys of their own, `model/learner/p/pending/<id>/<i>`, written first; then the
 * partition's head record `model/learner/p` — its model snapshot, both topics' offsets and the
 * chunks' id, count and length — which is the commit: a restore reads the head and exactly the
 * chunks it names, so a crash before the head is durable leaves the previous state whole. The
 * chunks of the head before (the one this store wrote or restored) are removed once the new head is
 * durable (where the store can remove); a crash in between leaves them unreferenced, never half of
 * a state. Those are found when the partition is restored (where the store can list its keys) and
 * removed once this store's first head for it is durable. A restore that finds a chunk removed under
 * it (a newer head landed while it read) reads the newer head instead. A write given an abort
 * signal stops before its next send once the signal is aborted (its attempt was given up).
 */
export class JoinStateStore<L, M> {
  /** Per partition, the chunks of the latest head this store wrote or restored. */
  private readonly written = new Map<number, { id: string; count: number }>();
  /** Per partition, chunk keys to remove once a newer head is durable: a superseded head's, and those no head named at restore. */
  private readonly obsolete = new Map<number, string[]>();

  constructor(private readonly store: SnapshotStore, private readonly codec: JoinStateCodec<L, M>, readonly options: JoinStateStoreOptions) {}

  headKey(partition: number): string {
    return `${this.options.model}/learner/${partition}`;
  }

  private chunkKey(partition: number, id: string, i: number): string {
    return `${this.chunkPrefix(partition)}${id}/${i}`;
  }

  private chunkPrefix(partition: number): string {
    return `${this.options.model}/learner/${partition}/pending/`;
  }

  /** The meta field names of the join's vocabulary. */
  private get fields(): { loggedTopic: string; outcomesTopic: string; loggedOffset: string; outcomesOffset: string } {
    const { logged, outcome } = this.codec.vocabulary;
    return { loggedTopic: `${logged}sTopic`, outcomesTopic: `${outcome}sTopic`, loggedOffset: `${logged}sOffset`, outcomesOffset: `${outcome}sOffset` };
  }

  /** The state as it is now, encoded (synchronously: no outcome is half applied in it). */
  encode(partition: number, state: JoinState<L, M>): EncodedJoinState {
    const { loggedTopic, outcomesTopic, maxRecordBytes } = this.options;
    const pending = encoder.encode(JSON.stringify(state.pending.toJson()));
    const id = randomUUID();
    const chunks: Uint8Array[] = [];
    for (let start = 0; start < pending.length; start += maxRecordBytes) chunks.push(pending.subarray(start, start + maxRecordBytes));
    const f = this.fields;
    const meta: { [key: string]: JsonValue } = {
      [f.loggedTopic]: loggedTopic, [f.outcomesTopic]: outcomesTopic, partition, [f.loggedOffset]: state.loggedNext, [f.outcomesOffset]: state.outcomesNext,
      learned: state.learned, pending: state.pending.size, pendingChunks: { id, count: chunks.length, bytes: pending.length },
    };
    const head = encodeSnapshot(this.codec.snapshot(state.model), meta);
    if (head.byteLength > maxRecordBytes) throw new ConfigError(`the model snapshot of partition ${partition} takes ${head.byteLength} bytes, more than maxStateRecordBytes (${maxRecordBytes})`, { field: 'maxStateRecordBytes', value: maxRecordBytes });
    return { partition, head, id, chunks };
  }

  /**
   * Writes the chunks, then the head (the commit), then removes the chunks of the previous head this
   * store wrote or restored, and those no head named at restore. Written again after a failure, it
   * writes the same records again (nothing it removes is the state's own).
   */
  async write(state: EncodedJoinState, signal?: AbortSignal): Promise<void> {
    const { partition, id, chunks } = state;
    for (const [i, chunk] of chunks.entries()) {
      signal?.throwIfAborted();
      await this.store.save(this.chunkKey(partition, id, i), chunk);
    }
    signal?.throwIfAborted();
    await this.store.save(this.headKey(partition), state.head);
    const previous = this.written.get(partition);
    this.written.set(partition, { id, count: chunks.length });
    if (this.store.remove === undefined) return;
    const obsolete = this.obsoleteOf(partition);
    if (previous !== undefined && previous.id !== id) obsolete.push(...Array.from({ length: previous.count }, (_, i) => this.chunkKey(partition, previous.id, i)));
    for (const key of [...obsolete]) {
      signal?.throwIfAborted();
      await this.store.remove(key);
      const at = obsolete.indexOf(key);
      if (at >= 0) obsolete.splice(at, 1);
    }
  }

  private obsoleteOf(partition: number): string[] {
    let keys = this.obsolete.get(partition);
    if (keys === undefined) {
      keys = [];
      this.obsolete.set(partition, keys);
    }
    return keys;
  }

  /**
   * The state of a partition, or undefined for a fresh one. When there is no head yet, the codec's
   * `previousState` (an older layout) is read, if it has one.
   */
  async read(partition: number, partitions: number): Promise<JoinState<L, M> | undefined> {
    let bytes = await this.store.latest(this.headKey(partition));
    if (bytes === undefined) return this.codec.previousState?.(this.store, this.options, partition, partitions);
    for (;;) {
      const { model, meta } = this.decodeHead(partition, bytes);
      const json = await this.readChunks(partition, meta.pendingChunks);
      if (json === undefined) {
        // A chunk is gone: a newer head superseded this one meanwhile (its writer removed the chunks); read that one, else the state is broken.
        const newer: Uint8Array | undefined = await this.store.latest(this.headKey(partition));
        if (newer !== undefined && !sameBytes(newer, bytes)) {
          bytes = newer;
          continue;
        }
        throw new SnapshotError(`learner state ${this.headKey(partition)}: a pending chunk of ${meta.pendingChunks.id} is missing or of the wrong length`, { source: this.options.outcomesTopic, field: 'pendingChunks' });
      }
      const pending = PendingJoins.fromJson(JSON.parse(decoder.decode(json)) as JsonValue, this.options.remember, this.codec);
      this.written.set(partition, { id: meta.pendingChunks.id, count: meta.pendingChunks.count });
      await this.findUnreferenced(partition, meta.pendingChunks.id);
      return { model, pending, loggedNext: meta.loggedOffset, outcomesNext: meta.outcomesOffset, learned: meta.learned };
    }
  }

  /** Notes the partition's chunk keys of another id than the restored head's, to remove after the next write. */
  private async findUnreferenced(partition: number, id: string): Promise<void> {
    if (this.store.keys === undefined) return;
    const prefix = this.chunkPrefix(partition);
    const mine = `${prefix}${id}/`;
    this.obsolete.set(partition, (await this.store.keys()).filter((key) => key.startsWith(prefix) && !key.startsWith(mine)));
  }

  /** The pending records' JSON from the chunks a head names, or undefined when one is missing or the lengths do not add up. */
  private async readChunks(partition: number, chunks: PendingChunks): Promise<Uint8Array | undefined> {
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

  /** A partition's model and counts from its head alone (the pending records unread), or undefined when it has no state yet. */
  async readModel(partition: number): Promise<PartitionModel<M> | undefined> {
    const bytes = await this.store.latest(this.headKey(partition));
    if (bytes === undefined) return undefined;
    const { model, meta } = this.decodeHead(partition, bytes);
    return { model, learned: meta.learned, pending: meta.pending, outcomesOffset: meta.outcomesOffset };
  }

  private decodeHead(partition: number, bytes: Uint8Array): { model: M; meta: HeadMeta } {
    const { snapshot, meta: raw } = decodeSnapshot(bytes);
    const f = this.fields;
    const meta: HeadMeta = {
      loggedTopic: raw[f.loggedTopic], outcomesTopic: raw[f.outcomesTopic], partition: raw.partition, loggedOffset: raw[f.loggedOffset] as number, outcomesOffset: raw[f.outcomesOffset] as number,
      learned: raw.learned as number, pending: raw.pending as number, pendingChunks: raw.pendingChunks as unknown as PendingChunks,
    };
    const { loggedTopic, outcomesTopic } = this.options;
    if (meta.loggedTopic !== loggedTopic || meta.outcomesTopic !== outcomesTopic || meta.partition !== partition || typeof meta.pendingChunks?.id !== 'string') {
      throw new SnapshotError(`learner state ${this.headKey(partition)} is of ${String(meta.loggedTopic)} / ${String(meta.outcomesTopic)} partition ${String(meta.partition)}, not ${loggedTopic} / ${outcomesTopic} partition ${partition}`, { source: outcomesTopic, field: 'meta' });
    }
    return { model: this.codec.restore(snapshot), meta };
  }
}
