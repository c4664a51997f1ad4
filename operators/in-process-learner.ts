import type { Batch } from '../src/core/batch.js';
import type { ModelSnapshot } from '../src/core/model-snapshot.js';
import type { ModelMonitor } from '../monitoring/model-monitor.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { applyBatch } from './apply-batch.js';
import type { LearnOutcome } from './learn-outcome.js';
import type { Learner } from './learner.js';

/**
 * A {@link Learner} over a model in this thread: synchronous, so marble tests see no extra ticks.
 * With a `monitor`, every learn call is recorded on it.
 */
export class InProcessLearner implements Learner {
  constructor(readonly model: OnlineModel, private readonly monitor?: ModelMonitor) {}

  get family(): string {
    return this.model.family;
  }

  get dim(): number {
    return this.model.dim;
  }

  get recordsSeen(): number {
    return this.model.recordsSeen;
  }

  learn(batch: Batch, rows: Float64Array, evaluate: boolean): LearnOutcome {
    const outcome = applyBatch(this.model, batch, rows, evaluate);
    this.monitor?.learned(this.model, outcome, batch.y);
    return outcome;
  }

  snapshot(): ModelSnapshot {
    return this.model.snapshot();
  }
}
