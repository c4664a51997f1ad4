import type { DeadLetterReason } from '../connectors/kafka/dead-letter-reason.js';
import type { KafkaPort } from '../connectors/kafka/kafka-port.js';
import type { KeyedJoinEvent } from '../connectors/kafka/keyed-join/keyed-join-event.js';
import { KeyedJoinLearner } from '../connectors/kafka/keyed-join/keyed-join-learner.js';
import type { SnapshotStore } from '../connectors/kafka/snapshot-store.js';
import type { TopicDurability } from '../connectors/kafka/topic-durability.js';
import type { Readiness } from '../monitoring/readiness.js';
import { ConfigError } from '../src/core/config-error.js';
import { labelProblem } from '../src/core/label-problem.js';
import { maxAbsInputOf } from '../src/core/max-abs-input-of.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { optionChecks } from '../src/core/option-checks.js';
import { getFamily } from '../src/registry.js';
import type { LoggedPrediction } from './logged-prediction.js';
import type { OutcomeMetrics } from './outcome-metrics.js';
import { outcomeJoin } from './outcome-join.js';

/** Options of {@link OutcomeLearner}. */
export interface OutcomeLearnerOptions {
  /** Where the scoring services log their predictions (keyed by prediction id). */
  readonly predictionsTopic: string;
  /** Where the labels arrive, `{"predictionId", "y"}` (keyed by prediction id: co-partitioned with the predictions). */
  readonly outcomesTopic: string;
  /** Snapshot keys: each partition's state under `model/learner/<partition>`, the merged posterior for the scoring services under `model/global`. */
  readonly model: string;
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
  /** Labels between state snapshots of a partition (default 1,000). */
  readonly snapshotEvery?: number;
  /** Labels learned and not yet snapshotted are snapshotted after at most this long, ms (default 1,000). */
  readonly snapshotEveryMs?: number;
  /** How often closed windows are looked for, ms (default min(1,000, window / 4)). */
  readonly expiryCheckMs?: number;
  /** Resolved prediction ids remembered per partition, to tell duplicate and late labels from unknown ones (default 100,000). */
  readonly rememberResolved?: number;
  /** Partitions of the two topics when this learner creates them (default 1). */
  readonly partitions?: number;
  /** Replication of the topics this learner creates. */
  readonly topics?: TopicDurability;
  /** Where the merged posterior is published (default: the state store). */
  readonly posteriorStore?: SnapshotStore;
  /** Longest wait for the predictions topic to catch up with a label's prediction, ms (default 30,000). */
  readonly catchUpTimeoutMs?: number;
  /** Consumer group of the learner instances (default `vbstream-outcome-learner.<outcomesTopic>.<model>`). */
  readonly groupId?: string;
  /** Consumer-group session timeout: how long a crashed instance holds its partitions, ms (default 30,000). */
  readonly sessionTimeoutMs?: number;
  /** Largest state record written, bytes (default 1,000,000): a partition's pending predictions are cut into records of at most this. */
  readonly maxStateRecordBytes?: number;
  /** Longest Kafka outage ridden out before the learner stops with an error, ms (default 300,000). */
  readonly maxOutageMs?: number;
  /** Longest {@link OutcomeLearner.stop} may take, ms (default 30,000). */
  readonly shutdownTimeoutMs?: number;
  /** Conditions kept current when given: `model-restored`, `source-consuming`, `brokers-reachable`. */
  readonly readiness?: Readiness;
  readonly metrics?: OutcomeMetrics;
  /** The runtime's events (its `logged` records are the predictions, its outcomes the labels). */
  readonly onEvent?: (event: KeyedJoinEvent) => void;
}

/**
 * The learning side of the scoring service: joins the predictions the scoring services log with
 * the labels that follow, by prediction id within `labelWindowMs`, and learns each labelled
 * prediction's (x, y) exactly once across crashes and rebalances — the keyed-join runtime
 * (`KeyedJoinLearner`, the bandit learner's too) with a label as the outcome joined to a logged
 * prediction ({@link outcomeJoin}). Any number of instances share the partitions in one consumer
 * group (`groupId`).
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
export class OutcomeLearner {
  private readonly runtime: KeyedJoinLearner<LoggedPrediction, OnlineModel>;

  constructor(port: KafkaPort, store: SnapshotStore, readonly options: OutcomeLearnerOptions) {
    OutcomeLearner.check(options);
    const { predictionsTopic, outcomesTopic, model, expiredLabel } = options;
    const join = outcomeJoin({ model, outcomesTopic, family: options.family, dim: options.dim, familyOptions: options.familyOptions, maxAbsInput: options.maxAbsInput, metrics: options.metrics });
    this.runtime = new KeyedJoinLearner(port, store, join, {
      loggedTopic: predictionsTopic, outcomesTopic, model, groupId: options.groupId ?? `vbstream-outcome-learner.${outcomesTopic}.${model}`,
      windowMs: options.labelWindowMs, expiredValue: expiredLabel, snapshotEvery: options.snapshotEvery, snapshotEveryMs: options.snapshotEveryMs,
      expiryCheckMs: options.expiryCheckMs, rememberResolved: options.rememberResolved, partitions: options.partitions, topics: options.topics,
      globalStore: options.posteriorStore, catchUpTimeoutMs: options.catchUpTimeoutMs, sessionTimeoutMs: options.sessionTimeoutMs,
      maxStateRecordBytes: options.maxStateRecordBytes, maxOutageMs: options.maxOutageMs, shutdownTimeoutMs: options.shutdownTimeoutMs,
      readiness: options.readiness, onEvent: options.onEvent,
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

  /** Labels (and expired predictions learned with the default) in the models of the partitions this instance owns, in all runs since the first. */
  get learned(): number {
    return this.runtime.learned;
  }

  /** Predictions awaiting their label at the partitions this instance owns. */
  get pendingCount(): number {
    return this.runtime.pendingCount;
  }

  /** The partitions this instance owns and has restored. */
  get partitions(): number[] {
    return this.runtime.partitions;
  }

  /** The models of the partitions this instance owns, in partition order (live: read them, never change them). */
  get models(): OnlineModel[] {
    return this.runtime.models;
  }

  /** Whether the brokers are unreachable now (an outage being ridden out). */
  get brokersDown(): boolean {
    return this.runtime.brokersDown;
  }

  /** Dead letters by reason. */
  deadLettersByReason(): Record<DeadLetterReason, number> | undefined {
    return this.runtime.deadLettersByReason();
  }

  /** Creates the topics if missing, publishes the merged posterior, joins the group and starts reading. `onFatal` hears a failure that stops the learner. */
  start(onFatal: (error: Error) => void): Promise<void> {
    return this.runtime.start(onFatal);
  }

  /** Stops reading, writes the state of every owned partition with labels since its last, publishes the merged posterior, leaves the group and disconnects, within `shutdownTimeoutMs`. */
  stop(): Promise<void> {
    return this.runtime.stop();
  }
}
