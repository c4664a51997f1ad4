import type { KafkaPort } from '../connectors/kafka/kafka-port.js';
import { KeyedJoinLearner, type KeyedJoinLearnerOptions } from '../connectors/kafka/keyed-join/keyed-join-learner.js';
import type { SnapshotStore } from '../connectors/kafka/snapshot-store.js';
import { ConfigError } from '../src/core/config-error.js';
import { labelProblem } from '../src/core/label-problem.js';
import { maxAbsInputOf } from '../src/core/max-abs-input-of.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { optionChecks } from '../src/core/option-checks.js';
import { getFamily } from '../src/registry.js';
import type { LoggedPrediction } from './logged-prediction.js';
import type { OutcomeMetrics } from './outcome-metrics.js';
import { outcomeJoin } from './outcome-join.js';

/** Options of {@link OutcomeLearner}: the runtime's (`KeyedJoinLearnerOptions`, its outcomes the labels), with the predictions, the model and the window in the scoring service's words. */
export interface OutcomeLearnerOptions extends Omit<KeyedJoinLearnerOptions, 'loggedTopic' | 'windowMs' | 'expiredValue' | 'groupId' | 'globalStore'> {
  /** Where the scoring services log their predictions (keyed by prediction id). */
  readonly predictionsTopic: string;
  /** The family learned (of the served posterior), its features and options. */
  readonly family: string;
  readonly dim: number;
  readonly familyOptions?: unknown;
  /** Bound on |feature| and |label| (the pipeline's `schema.maxAbsInput`); default 1e12. */
  readonly maxAbsInput?: number;
  /** How long a prediction waits for its label, ms from its `predictedAt`. */
  readonly labelWindowMs: number;
  /** The label learned for a prediction whose window closed without one (in the family's coding); undefined: such a prediction is dropped (not learned). */
  readonly expiredLabel?: number;
  /** Consumer group of the learner instances (default `vbstream-outcome-learner.<outcomesTopic>.<model>`). */
  readonly groupId?: string;
  /** Where the merged posterior is published (default: the state store). */
  readonly posteriorStore?: SnapshotStore;
  readonly metrics?: OutcomeMetrics;
}

/**
 * The learning side of the scoring service: joins the predictions the scoring services log with
 * the labels that follow, by prediction id within `labelWindowMs`, and learns each labelled
 * prediction's (x, y) exactly once across crashes and rebalances — the keyed-join runtime
 * (`KeyedJoinLearner`, the bandit learner's too: its counts, `models`, `start` and `stop` are the
 * runtime's) with a label as the outcome joined to a logged prediction ({@link outcomeJoin}). Any
 * number of instances share the partitions in one consumer group (`groupId`).
 *
 * - Every partition has its own state: its model (this partition's labels only), its pending
 *   predictions and resolved ids, both topics' next offsets; restored after every group join
 *   before a label is applied, so each label is in the state once.
 * - A label whose prediction has not been read yet waits until the predictions partition is read to
 *   its end as of then (the services log before they answer), so only a never-logged id is unknown.
 * - Label window: an expiry marker `{"predictionId", "expired": true[, "y": expiredLabel]}` goes to
 *   the outcomes topic for each prediction older than `labelWindowMs`; read back in log order it is
 *   learned with `expiredLabel`, or the prediction dropped.
 * - Dead letters (`<topic>.dlq`, with reasons): `unknown-prediction`, `duplicate-outcome`,
 *   `late-outcome` (after the window closed), `bad-label` (outside the family's coding),
 *   `wrong-width`, and the parse failures (`empty`, `bad-json`, `bad-shape`).
 * - The merged posterior: after every state written, every partition's latest durable model merged
 *   in partition order and published under `model/global` with `PosteriorCombiner`'s meta (its
 *   `version` `p:offset,…` of the outcomes partitions), which `vbstream serve --global` hot-swaps.
 */
export class OutcomeLearner extends KeyedJoinLearner<LoggedPrediction, OnlineModel> {
  constructor(port: KafkaPort, store: SnapshotStore, learner: OutcomeLearnerOptions) {
    OutcomeLearner.check(learner);
    const { predictionsTopic, labelWindowMs, expiredLabel, groupId, posteriorStore, family, dim, familyOptions, maxAbsInput, metrics, ...runtime } = learner;
    const join = outcomeJoin({ model: runtime.model, outcomesTopic: runtime.outcomesTopic, family, dim, familyOptions, maxAbsInput, metrics });
    super(port, store, join, {
      ...runtime, loggedTopic: predictionsTopic, windowMs: labelWindowMs, expiredValue: expiredLabel, globalStore: posteriorStore,
      groupId: groupId ?? `vbstream-outcome-learner.${runtime.outcomesTopic}.${runtime.model}`,
    });
  }

  /** Refuses, with a `ConfigError`, an unknown family, bad family options or limits, a window that is not positive, or an expired label outside the family's coding. */
  static check(options: Pick<OutcomeLearnerOptions, 'family' | 'dim' | 'familyOptions' | 'maxAbsInput' | 'labelWindowMs' | 'expiredLabel'>): void {
    optionChecks.positive('labelWindowMs', options.labelWindowMs, Number.NaN);
    const family = getFamily(options.family);
    const maxAbsInput = maxAbsInputOf(options.maxAbsInput);
    family.create(options.dim, options.familyOptions, { maxAbsInput });
    const { expiredLabel } = options;
    const problem = expiredLabel === undefined ? undefined : labelProblem(family.task, expiredLabel, maxAbsInput);
    if (problem !== undefined) throw new ConfigError(`expiredLabel: ${problem} (or leave it out: expired predictions are dropped)`, { field: 'expiredLabel', value: expiredLabel });
  }
}
