import type { OnlineModel } from '../src/core/online-model.js';
import type { PosteriorSink } from './posterior-sink.js';
import type { PosteriorSource } from './posterior-source.js';
import type { SnapshotCandidate } from './snapshot-candidate.js';

/**
 * Posteriors handed over in code: `publish(model, version)` offers a snapshot of `model` (taken at
 * once, so the model may go on learning) to the service; the latest published before `start` is
 * offered when it starts. For tests, and for an application that learns in the same process.
 */
export class MemoryPosteriorSource implements PosteriorSource {
  readonly description = 'posteriors published in memory';
  private sink: PosteriorSink | undefined;
  private latest: SnapshotCandidate | undefined;

  /** Offers a snapshot of `model` as `version` (made now unless `createdAt`, ms since the epoch, says otherwise); returns false when the service refused it. */
  publish(model: OnlineModel, version: string, createdAt = Date.now()): boolean {
    this.latest = { snapshot: model.snapshot(), version, createdAt, origin: `memory ${version}` };
    return this.sink === undefined ? true : this.sink.offer(this.latest);
  }

  async start(sink: PosteriorSink): Promise<void> {
    this.sink = sink;
    if (this.latest !== undefined) sink.offer(this.latest);
  }

  async stop(): Promise<void> {
    this.sink = undefined;
  }
}
