import type { JsonValue } from '../../../src/core/model-snapshot.js';
import type { JoinVocabulary } from './join-vocabulary.js';

/** Where a logged record stands at the learner: awaiting its outcome, joined, expired, or not known. */
export type JoinStatus = 'pending' | 'joined' | 'expired' | 'unknown';

/** A logged record awaiting its outcome, with the partition it was logged to (its outcome's partition too). */
export interface PendingJoin<L> {
  readonly logged: L;
  readonly partition: number;
}

/** What {@link PendingJoins} needs to know of a logged record, and the words its JSON is written in. */
export interface PendingJoinKeys<L> {
  idOf(logged: L): string;
  /** When it was logged, ms since the epoch: its window runs from here. */
  timeOf(logged: L): number;
  readonly vocabulary: JoinVocabulary;
}

/**
 * A keyed join's state at one partition: the logged records read and not yet resolved, and the ids
 * of the last `remember` resolved ones (joined or expired), so that a second outcome is told apart
 * as a duplicate or as late rather than unknown. Insertion-ordered and bounded: the oldest resolved
 * id is forgotten first. `toJson` goes into the partition's state (in chunks, `JoinStateStore`):
 * `{pending: [{partition, <logged>: record}], resolved: [[id, <joined> | 'expired']]}`.
 */
export class PendingJoins<L> {
  private readonly pending = new Map<string, PendingJoin<L>>();
  private readonly resolved = new Map<string, 'joined' | 'expired'>();

  constructor(readonly remember: number, private readonly keys: PendingJoinKeys<L>) {}

  /** Logged records awaiting their outcome. */
  get size(): number {
    return this.pending.size;
  }

  status(id: string): JoinStatus {
    return this.pending.has(id) ? 'pending' : this.resolved.get(id) ?? 'unknown';
  }

  get(id: string): PendingJoin<L> | undefined {
    return this.pending.get(id);
  }

  /** Holds a logged record read from the topic; false (nothing held) when its id is already pending or resolved. */
  add(logged: L, partition: number): boolean {
    const id = this.keys.idOf(logged);
    if (this.status(id) !== 'unknown') return false;
    this.pending.set(id, { logged, partition });
    return true;
  }

  /** Resolves a pending record (its outcome learned, or its window closed) and returns it. */
  resolve(id: string, how: 'joined' | 'expired'): PendingJoin<L> {
    const entry = this.pending.get(id)!;
    this.pending.delete(id);
    this.resolved.set(id, how);
    if (this.resolved.size > this.remember) this.resolved.delete(this.resolved.keys().next().value!);
    return entry;
  }

  /** Pending records whose window of `windowMs` has closed at `now` (ms since the epoch). */
  due(now: number, windowMs: number): PendingJoin<L>[] {
    const due: PendingJoin<L>[] = [];
    for (const entry of this.pending.values()) if (this.keys.timeOf(entry.logged) + windowMs <= now) due.push(entry);
    return due;
  }

  toJson(): JsonValue {
    const { logged, joined } = this.keys.vocabulary;
    return {
      pending: [...this.pending.values()].map((entry) => ({ partition: entry.partition, [logged]: entry.logged as unknown as JsonValue })),
      resolved: [...this.resolved.entries()].map(([id, how]) => [id, how === 'joined' ? joined : 'expired']),
    };
  }

  /** The state of {@link PendingJoins.toJson}. */
  static fromJson<L>(json: JsonValue, remember: number, keys: PendingJoinKeys<L>): PendingJoins<L> {
    const state = new PendingJoins<L>(remember, keys);
    const { logged, joined } = keys.vocabulary;
    const { pending, resolved } = json as unknown as { pending: ({ partition: number } & { [key: string]: unknown })[]; resolved: [string, string][] };
    for (const entry of pending) {
      const record = entry[logged] as L;
      state.pending.set(keys.idOf(record), { logged: record, partition: entry.partition });
    }
    for (const [id, how] of resolved) state.resolved.set(id, how === joined ? 'joined' : 'expired');
    return state;
  }
}
