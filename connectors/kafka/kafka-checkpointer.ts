import type { Checkpoint, Checkpointer } from '../../operators/checkpointer.js';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import type { SnapshotEvent } from '../../src/core/snapshot-event.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { DeadLetterSink } from './dead-letter-sink.js';
import type { LearnerEvent } from './learner-event.js';
import { snapshotKey } from './snapshot-key.js';
import type { SnapshotStore } from './snapshot-store.js';
import { writeWithin } from './write-within.js';

/** What a partition's checkpointer works with. */
export interface KafkaCheckpointerOptions {
  readonly topic: string;
  readonly partition: number;
  readonly model: string;
  readonly family: string;
  readonly store: SnapshotStore;
  readonly deadLetters: DeadLetterSink;
  /** Commits `nextOffset` for the partition in the consumer group (rejects when the group moved on). */
  readonly commit: (nextOffset: number) => Promise<void>;
  /** Whether this process still owns the partition at the generation the checkpointer was made for. */
  readonly owned: () => boolean;
  /** Longest one attempt of a dead-letter flush or a snapshot save may take, ms (a hung broker counts as failing). */
  readonly timeoutMs: number;
  /** Runs a write until it succeeds while a Kafka outage may be ridden out (`BrokerOutage.retry`); default: once. */
  readonly retry?: <T>(what: string, attempt: () => Promise<T>) => Promise<T>;
  readonly onEvent?: (event: LearnerEvent) => void;
}

const once = <T>(_what: string, attempt: () => Promise<T>): Promise<T> => attempt();

/**
 * The checkpointer of one Kafka partition: flushes the dead letters (so every letter of a
 * committed record is durable), writes the snapshot with its next offset to the snapshot store
 * under `model/partition` and waits until it is durable, then commits that offset. A commit that
 * fails (the group is rebalancing) is kept as owed and retried by {@link commitOwed} — the offset
 * is safe in the durable snapshot meanwhile, and a restore seeks to it — so a caught-up partition's
 * committed offset reaches its snapshot's even when no new record arrives. A flush or save that
 * fails or hangs past `timeoutMs` is tried again through `retry` while the brokers may come back, and
 * otherwise rejects, which stops the service (it never hangs silently).
 */
export class KafkaCheckpointer implements Checkpointer {
  private durable: number | undefined;
  private durableRecords = Number.NaN;
  private committed: number | undefined;
  private readonly waiters: { offset: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly options: KafkaCheckpointerOptions, start: number | null) {
    this.durable = start ?? undefined;
    this.committed = start ?? undefined;
  }

  /** The next offset of the newest durable snapshot (undefined before any). */
  get durableOffset(): number | undefined {
    return this.durable;
  }

  async checkpoint(event: SnapshotEvent): Promise<Checkpoint> {
    const { topic, partition, model, family, store, deadLetters, timeoutMs, onEvent, retry = once } = this.options;
    const nextOffset = event.positions[`${topic}/${partition}`];
    const key = snapshotKey(model, partition);
    if (nextOffset === undefined) throw new VbstreamError('io', `snapshot of ${key} covers no position of ${topic} partition ${partition}`, { source: topic, field: 'positions' });
    if (deadLetters.pendingCount > 0) await retry(`flushing dead letters to ${topic}.dlq`, () => writeWithin(() => deadLetters.flush(), timeoutMs, 'the dead-letter producer', `${topic}.dlq`));
    const records = event.recordsSeen;
    const bytes = encodeSnapshotEvent(event, { topic, partition, nextOffset, records, model, family });
    onEvent?.({ type: 'snapshot-writing', partition, nextOffset, records });
    await retry(`writing snapshot ${key}`, () => writeWithin(() => store.save(key, bytes), timeoutMs, 'the snapshot store', `snapshot ${key}`));
    this.durable = nextOffset;
    this.durableRecords = records;
    onEvent?.({ type: 'snapshot-durable', partition, nextOffset, records });
    await this.commitOwed();
    this.wake();
    return { event, location: key, bytes: bytes.byteLength };
  }

  /**
   * Commits the newest durable snapshot's offset if it is not committed yet and the partition is
   * still owned; a refused commit stays owed. Returns whether the committed offset is now the durable one.
   */
  async commitOwed(): Promise<boolean> {
    const offset = this.durable;
    if (offset === undefined || offset === this.committed) return true;
    if (!this.options.owned()) return false;
    try {
      await this.options.commit(offset);
    } catch {
      return false;
    }
    this.committed = offset;
    this.options.onEvent?.({ type: 'committed', partition: this.options.partition, nextOffset: offset, records: this.durableRecords });
    return true;
  }

  /** Resolves once a snapshot covering every record below `offset` is durable. */
  reached(offset: number): Promise<void> {
    if (this.durable !== undefined && this.durable >= offset) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ offset, resolve, reject }));
  }

  /** Rejects every pending {@link reached} (the partition's pipeline failed or was retired). */
  abandon(error: unknown): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  private wake(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (this.durable !== undefined && this.durable >= waiter.offset) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}
