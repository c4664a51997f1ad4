import type { LearnOutcome } from '../../operators/learn-outcome.js';
import type { Learner } from '../../operators/learner.js';
import type { Batch } from '../../src/core/batch.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';

/**
 * A slow learner driven by the test, as a worker that lags its source: each call waits until the
 * test answers it ({@link answerNext}, oldest first), and a snapshot is queued behind the calls
 * made before it (its header's `recordsSeen` is the state it holds). Counts the calls handed to it
 * and not answered, and the most there ever were at once.
 */
export class PendingLearner implements Learner {
  readonly family = 'pending';
  /** The most calls handed and not answered at any one time. */
  maxInFlight = 0;
  private readonly calls: { readonly n: number; readonly resolve: (outcome: LearnOutcome) => void }[] = [];
  private readonly queuedSnapshots: { readonly at: number; readonly resolve: (snapshot: ModelSnapshot) => void }[] = [];
  private answered = 0;
  private seen = 0;

  constructor(readonly dim = 1) {}

  get recordsSeen(): number {
    return this.seen;
  }

  /** Calls handed to it so far. */
  get handed(): number {
    return this.calls.length;
  }

  /** Calls handed to it and not answered yet. */
  get inFlight(): number {
    return this.calls.length - this.answered;
  }

  learn(batch: Batch): Promise<LearnOutcome> {
    return new Promise((resolve) => {
      this.calls.push({ n: batch.n, resolve });
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    });
  }

  snapshot(): ModelSnapshot | Promise<ModelSnapshot> {
    const at = this.calls.length;
    if (at === this.answered) return this.state();
    return new Promise((resolve) => this.queuedSnapshots.push({ at, resolve }));
  }

  /** Answers the oldest call not answered yet, then the snapshots queued behind it. */
  answerNext(): void {
    if (this.inFlight === 0) throw new Error(`no call to answer: all ${this.handed} handed are answered`);
    const call = this.calls[this.answered++];
    this.seen += call.n;
    call.resolve({ stats: { records: call.n }, recordsSeen: this.seen, rejected: [], durationMs: 0 });
    while (this.queuedSnapshots.length > 0 && this.queuedSnapshots[0].at === this.answered) this.queuedSnapshots.shift()!.resolve(this.state());
  }

  private state(): ModelSnapshot {
    return { family: this.family, version: 1, dim: this.dim, header: { recordsSeen: this.seen }, arrays: {} };
  }
}
