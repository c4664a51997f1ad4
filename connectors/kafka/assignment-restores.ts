import type { Readiness } from '../../monitoring/readiness.js';
import type { BrokerOutage } from './broker-outage.js';

/** What {@link AssignmentRestores} needs of its learner. */
export interface AssignmentRestoresOptions<T> {
  /** Restores one partition for a group generation (its state, its model). */
  readonly restore: (partition: number, generation: number) => Promise<T>;
  /** Retries the restores through an outage. */
  readonly outage: BrokerOutage;
  /** The consumer's current group generation (undefined before it joins). */
  readonly generation: () => number | undefined;
  readonly stopping: () => boolean;
  /** Hears a restore that failed for good at the current generation. */
  readonly fail: (error: unknown) => void;
  /** Its `model-restored` condition is false from a group join until every assigned partition is restored. */
  readonly readiness?: Readiness;
}

/**
 * The restore gate of a partitioned learner: after every group join every assigned partition is
 * restored (each restore retried through an outage, one per partition and generation), and no batch
 * of that generation is applied until all are; a restore that fails for good stops the learner.
 */
export class AssignmentRestores<T> {
  private readonly restoring = new Map<number, { generation: number; restored: Promise<T> }>();
  private gate: { generation: number; restored: Promise<boolean> } | undefined;

  constructor(private readonly options: AssignmentRestoresOptions<T>) {}

  /** After a group join: restores every assigned partition; batches of `generation` wait for them all. */
  assigned(partitions: readonly number[], generation: number): void {
    const { outage, readiness, stopping, fail } = this.options;
    const current = (): boolean => this.options.generation() === generation;
    readiness?.set('model-restored', false);
    const restored = outage.retry('restoring the assigned partitions', async () => {
      if (!current() || stopping()) return false;
      await Promise.all(partitions.map((p) => this.of(p, generation)));
      return true;
    }).then((done) => {
      if (done && current()) readiness?.set('model-restored');
      return done;
    }, (error: unknown) => {
      if (current() && !stopping()) fail(error);
      return false;
    });
    this.gate = { generation, restored };
  }

  /** Whether a batch of `generation` may be applied: once every partition assigned at it is restored, and only if it is the latest join's. */
  async admit(generation: number): Promise<boolean> {
    const gate = this.gate;
    return gate !== undefined && gate.generation === generation && await gate.restored;
  }

  /** Whether the restore of `partition` for `generation` is still the one wanted (no newer join superseded it). */
  wanted(partition: number, generation: number): boolean {
    return this.restoring.get(partition)?.generation === generation;
  }

  /** Resolves once every restore under way has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.restoring.values()].map((r) => r.restored));
  }

  private of(p: number, generation: number): Promise<T> {
    const current = this.restoring.get(p);
    if (current !== undefined && current.generation === generation) return current.restored;
    const restored = this.options.restore(p, generation);
    const entry = { generation, restored };
    this.restoring.set(p, entry);
    restored.catch(() => { if (this.restoring.get(p) === entry) this.restoring.delete(p); });
    return restored;
  }
}
