import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { LoggedDecision } from './logged-decision.js';

/** Where a decision stands at the learner. */
export type DecisionStatus = 'pending' | 'rewarded' | 'expired' | 'unknown';

/** A decision awaiting its reward, with the partition it was logged to (its reward's partition too). */
export interface PendingDecision {
  readonly decision: LoggedDecision;
  readonly partition: number;
}

/**
 * The learner's join state: decisions read from the decisions topic and not yet resolved, and the
 * ids of the last `remember` resolved ones (rewarded or expired), so that a second reward is told
 * apart as a duplicate or as late rather than unknown. Insertion-ordered and bounded: the oldest
 * resolved id is forgotten first. The learner keeps one per partition; `toJson` goes into the
 * partition's state (in chunks, `PartitionStateStore`).
 */
export class PendingDecisions {
  private readonly pending = new Map<string, PendingDecision>();
  private readonly resolved = new Map<string, 'rewarded' | 'expired'>();

  constructor(readonly remember: number) {}

  /** Decisions awaiting their reward. */
  get size(): number {
    return this.pending.size;
  }

  status(decisionId: string): DecisionStatus {
    return this.pending.has(decisionId) ? 'pending' : this.resolved.get(decisionId) ?? 'unknown';
  }

  get(decisionId: string): PendingDecision | undefined {
    return this.pending.get(decisionId);
  }

  /** Holds a decision read from the topic; false (nothing held) when its id is already pending or resolved. */
  add(decision: LoggedDecision, partition: number): boolean {
    if (this.status(decision.decisionId) !== 'unknown') return false;
    this.pending.set(decision.decisionId, { decision, partition });
    return true;
  }

  /** Resolves a pending decision (its reward learned, or its window closed) and returns it. */
  resolve(decisionId: string, how: 'rewarded' | 'expired'): PendingDecision {
    const entry = this.pending.get(decisionId)!;
    this.pending.delete(decisionId);
    this.resolved.set(decisionId, how);
    if (this.resolved.size > this.remember) this.resolved.delete(this.resolved.keys().next().value!);
    return entry;
  }

  /** Pending decisions whose window of `windowMs` has closed at `now` (ms since the epoch). */
  due(now: number, windowMs: number): PendingDecision[] {
    const due: PendingDecision[] = [];
    for (const entry of this.pending.values()) if (entry.decision.decidedAt + windowMs <= now) due.push(entry);
    return due;
  }

  toJson(): JsonValue {
    return {
      pending: [...this.pending.values()].map(({ decision, partition }) => ({ partition, decision: decision as unknown as JsonValue })),
      resolved: [...this.resolved.entries()].map(([id, how]) => [id, how]),
    };
  }

  /** The state of {@link PendingDecisions.toJson}. */
  static fromJson(json: JsonValue, remember: number): PendingDecisions {
    const state = new PendingDecisions(remember);
    const { pending, resolved } = json as unknown as { pending: { partition: number; decision: LoggedDecision }[]; resolved: [string, 'rewarded' | 'expired'][] };
    for (const { partition, decision } of pending) state.pending.set(decision.decisionId, { decision, partition });
    for (const [id, how] of resolved) state.resolved.set(id, how);
    return state;
  }
}
