import { ConfigError } from '../src/core/config-error.js';

/** What a source must offer to be throttled: Node streams, the file/synthetic sources, Kafka partitions. */
export interface Pausable {
  pause(): void;
  resume(): void;
}

/**
 * The bounded queue between a source and the model's worker, as a count of records accepted but
 * not yet learned. When the depth reaches `capacity` the source is told to pause; when it drains
 * to `resumeAt` (default capacity/2) it is told to resume. Records a source had already emitted
 * when it paused are still queued, so the depth may pass `capacity` by one source chunk.
 */
export class BackpressureValve {
  private queued = 0;
  private paused = false;
  /** Times the source was paused (a hook for metrics). */
  pauses = 0;

  constructor(readonly source: Pausable, readonly capacity: number, readonly resumeAt = Math.floor(capacity / 2)) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new ConfigError('queue capacity must be a positive integer', { field: 'capacity', value: capacity });
    if (!Number.isInteger(resumeAt) || resumeAt < 0 || resumeAt >= capacity) throw new ConfigError('resume level must be an integer in [0, capacity)', { field: 'resumeAt', value: resumeAt });
  }

  /** Records queued and not yet learned. */
  get depth(): number {
    return this.queued;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** `count` records entered the queue. */
  enter(count: number): void {
    this.queued += count;
    if (!this.paused && this.queued >= this.capacity) {
      this.paused = true;
      this.pauses++;
      this.source.pause();
    }
  }

  /** `count` records left the queue (learned or refused). */
  leave(count: number): void {
    this.queued -= count;
    if (this.paused && this.queued <= this.resumeAt) {
      this.paused = false;
      this.source.resume();
    }
  }
}
