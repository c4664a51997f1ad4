import { SnapshotError } from '../src/core/snapshot-error.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { getFamily } from '../src/registry.js';
import type { PosteriorSink } from './posterior-sink.js';
import type { ServedPosterior } from './served-posterior.js';
import type { SnapshotCandidate } from './snapshot-candidate.js';

/** Options of {@link HotSwappedPosterior}. */
export interface HotSwappedPosteriorOptions {
  /** The family served; a snapshot of another is refused. Default: the first snapshot's. */
  readonly family?: string;
  /** The features served; a snapshot of another width is refused. Default: the first snapshot's. */
  readonly dim?: number;
  /** The models' bound on |feature| (`InputLimits`; not in snapshots): default 1e12. */
  readonly maxAbsInput?: number;
  /** Told about every posterior swapped in. */
  readonly onSwap?: (posterior: ServedPosterior) => void;
  /** Told, once, about every snapshot refused (the served posterior stays): a `SnapshotError` naming where it came from. */
  readonly onRefuse?: (error: SnapshotError) => void;
}

/**
 * The posterior a scoring service serves, swapped atomically: a snapshot offered is checked against
 * the family and width served (a mismatch is refused), restored in full with the service's input
 * limits, and only then served, by one reference assignment — so a request, which reads
 * {@link current} once, is answered entirely by one posterior, and none fails or sees half a swap.
 * A refused snapshot is reported once to `onRefuse` and the last good posterior keeps serving.
 */
export class HotSwappedPosterior implements PosteriorSink {
  /** Posteriors swapped in, the first included. */
  swaps = 0;
  /** Snapshots refused. */
  refused = 0;
  private served: ServedPosterior | undefined;
  private waiters: ((posterior: ServedPosterior) => void)[] = [];

  constructor(private readonly options: HotSwappedPosteriorOptions = {}) {}

  /** The posterior being served, or undefined before the first. */
  get current(): ServedPosterior | undefined {
    return this.served;
  }

  offer(candidate: SnapshotCandidate): boolean {
    const { snapshot, origin } = candidate;
    const family = this.options.family ?? this.served?.model.family;
    const dim = this.options.dim ?? this.served?.model.dim;
    try {
      if (family !== undefined && snapshot.family !== family) {
        throw new SnapshotError(`snapshot is of family "${snapshot.family}", this service serves "${family}"`, { source: origin, field: 'family', value: snapshot.family });
      }
      if (dim !== undefined && snapshot.dim !== dim) throw new SnapshotError(`snapshot has ${snapshot.dim} features, this service serves ${dim}`, { source: origin, field: 'dim', value: snapshot.dim });
      let model;
      try {
        model = getFamily(snapshot.family).restore(snapshot, { maxAbsInput: this.options.maxAbsInput });
      } catch (error) {
        throw new SnapshotError(error instanceof VbstreamError ? error.reason : String(error), { source: origin, field: error instanceof VbstreamError ? error.location.field ?? 'snapshot' : 'snapshot' }, { cause: error });
      }
      const posterior: ServedPosterior = { model, version: candidate.version, createdAt: candidate.createdAt, origin };
      this.served = posterior;
      this.swaps++;
      this.options.onSwap?.(posterior);
      for (const wake of this.waiters.splice(0)) wake(posterior);
      return true;
    } catch (error) {
      this.refuse(origin, error);
      return false;
    }
  }

  refuse(origin: string, error: unknown): void {
    this.refused++;
    const refusal = error instanceof SnapshotError ? error : new SnapshotError(error instanceof VbstreamError ? error.reason : String(error instanceof Error ? error.message : error), { source: origin }, { cause: error });
    this.options.onRefuse?.(refusal);
  }

  /** Resolves with the served posterior once there is one. */
  loaded(): Promise<ServedPosterior> {
    const served = this.served;
    if (served !== undefined) return Promise.resolve(served);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
