import { Subject, tap, type Subscription } from 'rxjs';
import { BackpressureValve, type Pausable } from '../../operators/backpressure-valve.js';
import type { BadRecord } from '../../operators/bad-record.js';
import type { EncodedChunk } from '../../operators/encoded-chunk.js';
import type { Checkpoint } from '../../operators/checkpointer.js';
import { checkpoints } from '../../operators/checkpoints.js';
import { learn } from '../../operators/learn.js';
import type { Learner } from '../../operators/learner.js';
import type { RecordChunk } from '../../operators/record-chunk.js';
import { snapshots } from '../../operators/snapshots.js';
import type { UpdateEvent } from '../../operators/update-event.js';
import type { SnapshotReason } from '../../src/core/snapshot-event.js';
import type { KafkaCheckpointer } from './kafka-checkpointer.js';

/** What a partition's runtime is built from. */
export interface PartitionRunParts {
  readonly partition: number;
  readonly generation: number;
  readonly learner: Learner;
  /** Ends the learner (its worker) once its queued work is done. */
  readonly close: () => Promise<void>;
  readonly checkpointer: KafkaCheckpointer;
  /** Pauses and resumes this partition's fetching (through the valve). */
  readonly source: Pausable;
  readonly queueCapacity: number;
  readonly evaluate: boolean;
  /** Snapshot once this many ms passed since the last snapshot, when records passed since it; also the least time between two caught-up snapshots. */
  readonly everyMs: number;
  /** Records the model refused (with the message they came from). */
  readonly refused: (bad: BadRecord) => void;
  /** Each learn event (metrics, counts). */
  readonly updated: (event: UpdateEvent) => void;
  /** Each snapshot made durable (its size, for metrics). */
  readonly checkpointed: (checkpoint: Checkpoint) => void;
  /** The pipeline failed: the service must stop. */
  readonly failed: (error: unknown) => void;
  /** Where the consumer stands: the offset of the next record to feed (null before the first of a fresh partition). */
  readonly nextOffset: number | null;
}

/**
 * One assigned partition on the runtime: decoded (or, for a worker that decodes, encoded) chunks are fed to the same operators a file
 * pipeline uses — learn (through the partition's learner, behind its backpressure valve) →
 * snapshots (on request from the consumer, every `everyMs`, and at the end) → checkpoints (the
 * partition's {@link KafkaCheckpointer}: durable snapshot, then commit) — in a line.
 */
export class PartitionRun {
  readonly partition: number;
  readonly generation: number;
  readonly learner: Learner;
  readonly valve: BackpressureValve;
  readonly checkpointer: KafkaCheckpointer;
  /** Offset of the next record to feed; null until the first record of a fresh partition. */
  nextOffset: number | null;
  /** Whether the first batch after the restore has been checked against `nextOffset`. */
  positioned = false;
  /** The offset the consumer was last told to seek to. */
  soughtTo: number | null = null;
  highWatermark = 0;
  /** Offset of the next record to learn: every record before it is learned or dead-lettered (null until known). */
  learnedOffset: number | null;
  /** Records fed since the last snapshot request. */
  sinceRequest = 0;
  /** False once revoked or superseded: its valve no longer pauses or resumes the consumer. */
  live = true;
  /** The pipeline's failure, once it failed. */
  failure: unknown;
  private readonly feed = new Subject<RecordChunk | EncodedChunk>();
  /** The snapshot asked for by {@link snapshotBehindFeed} last, until durable. */
  private saving: Promise<void> = Promise.resolve();
  /** Whether the learner has answered a chunk (made an update event). */
  private answered = false;
  private readonly requests = new Subject<SnapshotReason>();
  private readonly done: Promise<void>;
  private readonly subscription: Subscription;
  private readonly close: () => Promise<void>;
  private readonly everyMs: number;
  /** When the last snapshot on a clock (caught up, or the interval) was taken, ms since the epoch. */
  private lastTimedAt = Number.NEGATIVE_INFINITY;

  constructor(parts: PartitionRunParts) {
    this.partition = parts.partition;
    this.generation = parts.generation;
    this.learner = parts.learner;
    this.checkpointer = parts.checkpointer;
    this.nextOffset = parts.nextOffset;
    this.learnedOffset = parts.nextOffset;
    this.close = parts.close;
    this.everyMs = parts.everyMs;
    this.valve = new BackpressureValve({
      pause: () => { if (this.live) parts.source.pause(); },
      resume: () => { if (this.live) parts.source.resume(); },
    }, parts.queueCapacity);
    const pipeline = this.feed.pipe(
      learn(this.learner, { evaluate: parts.evaluate, badRecords: { next: parts.refused }, valve: this.valve }),
      tap((event) => {
        this.answered = true;
        parts.updated(event);
      }),
      snapshots({ everyMs: parts.everyMs, requests: this.requests }),
      tap((event) => { if (event.reason === 'caught-up' || event.reason === 'interval') this.lastTimedAt = Date.now(); }),
      checkpoints(this.checkpointer),
      tap(parts.checkpointed),
    );
    let subscription: Subscription | undefined;
    this.done = new Promise<void>((resolve, reject) => {
      subscription = pipeline.subscribe({ complete: resolve, error: reject });
    });
    this.subscription = subscription as Subscription;
    this.done.catch((error: unknown) => {
      this.failure ??= error;
      this.checkpointer.abandon(error);
      if (this.live) parts.failed(error);
    });
  }

  /** Feeds a decoded chunk, or an encoded one for a learner that decodes (queued behind the ones before it; the valve pauses the partition when full). */
  push(chunk: RecordChunk | EncodedChunk): void {
    this.sinceRequest += chunk.consumed;
    this.feed.next(chunk);
  }

  /**
   * Asks for a snapshot of everything fed so far and resolves once it is durable (and its offset
   * committed, unless the group moved on). `learn` takes the model's state once every chunk fed
   * before the request is handed to the learner (queued behind them where the model lives), so the
   * snapshot's state and position are those of the consumer's position now, without waiting for
   * the queue to drain.
   */
  async snapshot(reason: SnapshotReason): Promise<void> {
    const offset = this.nextOffset;
    this.sinceRequest = 0;
    if (offset === null) return;
    this.requests.next(reason);
    await this.checkpointer.reached(offset);
  }

  /**
   * Asks for a snapshot of everything fed so far once the one asked for before it is durable, and
   * resolves then, without waiting for this one: the partition is fed while it is saved, with one
   * save in flight at a time. Until the learner has answered once, it waits for this one too (a
   * request is taken at the first answer, and would cover what is fed meanwhile). Rejects if the
   * one before failed.
   */
  async snapshotBehindFeed(reason: SnapshotReason): Promise<void> {
    await this.saving;
    this.saving = this.snapshot(reason);
    this.saving.catch(() => undefined); // its failure fails the pipeline (`failed`) and rejects the next request
    if (!this.answered) await this.saving;
  }

  /**
   * Whether a caught-up partition may snapshot now: records passed since the last request and no
   * snapshot on a clock was taken within `everyMs` (a live stream that catches up at every fetch
   * would otherwise snapshot at every fetch; the interval timer takes what is left over).
   */
  get caughtUpSnapshotDue(): boolean {
    return this.sinceRequest > 0 && this.live && Date.now() - this.lastTimedAt >= this.everyMs;
  }

  /** Ends the stream: a final snapshot of what was learned since the last one, made durable and committed; resolves when done (rejects if the pipeline failed). */
  async finish(): Promise<void> {
    this.feed.complete();
    await this.done;
  }

  /** Stops using this partition (revoked or superseded): no more snapshots or commits; the learner ends after its queued work. */
  async retire(): Promise<void> {
    this.live = false;
    this.subscription.unsubscribe();
    this.checkpointer.abandon(new Error(`partition ${this.partition} was retired`));
    await this.close();
  }
}
