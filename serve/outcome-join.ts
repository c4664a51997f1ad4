import type { JoinObserver } from '../connectors/kafka/keyed-join/join-observer.js';
import { JoinRefusal } from '../connectors/kafka/keyed-join/join-refusal.js';
import type { KeyedJoin } from '../connectors/kafka/keyed-join/keyed-join.js';
import { ConfigError } from '../src/core/config-error.js';
import type { InputLimits } from '../src/core/input-limits.js';
import { labelProblem } from '../src/core/label-problem.js';
import { maxAbsInputOf } from '../src/core/max-abs-input-of.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { SnapshotError } from '../src/core/snapshot-error.js';
import { getFamily } from '../src/registry.js';
import type { LoggedPrediction } from './logged-prediction.js';
import type { OutcomeMetrics } from './outcome-metrics.js';
import { parseLoggedPrediction } from './parse-logged-prediction.js';

/** Options of {@link outcomeJoin}. */
export interface OutcomeJoinOptions {
  /** The model name of the snapshot keys (`<model>/global` is what the scoring services read). */
  readonly model: string;
  /** The outcomes topic: the published posterior's `topic`, its partitions' offsets its `version`. */
  readonly outcomesTopic: string;
  readonly family: string;
  readonly dim: number;
  readonly familyOptions?: unknown;
  /** Bound on |feature| and |label| (`InputLimits.maxAbsInput`); default 1e12. */
  readonly maxAbsInput?: number;
  readonly metrics?: OutcomeMetrics;
}

/**
 * The outcome learner as a keyed join: a label (`{"predictionId", "y"}` on the outcomes topic) is
 * an outcome joined to a prediction a scoring service logged, learned by the partition's model as
 * the record (x, y) — x the features exactly as the served model saw them. Each partition's model
 * is a fresh model of `family` over `dim` features; a label outside the family's coding is refused
 * as `bad-label` (the prediction stays pending). The partitions' models merge with the family's
 * `merge` (a family without one cannot run on more than one partition: `ConfigError`) and are
 * published with `PosteriorCombiner.publish`'s meta — `{model, topic, offsets, partitions, skipped,
 * records, version}`, `topic` the outcomes topic and `version` `p:offset,…` of every outcomes
 * partition — so `readGlobalPosterior` and the scoring services' snapshot-topic source read it.
 * The join's events feed the {@link OutcomeMetrics} when given.
 */
export function outcomeJoin(options: OutcomeJoinOptions): KeyedJoin<LoggedPrediction, OnlineModel> {
  const { model: name, outcomesTopic, dim, familyOptions, metrics } = options;
  const family = getFamily(options.family);
  const limits: InputLimits = { maxAbsInput: maxAbsInputOf(options.maxAbsInput) };
  const maxAbsInput = limits.maxAbsInput!;
  const observer: JoinObserver<LoggedPrediction> | undefined = metrics === undefined ? undefined : {
    joined: (prediction, y, at) => metrics.recordLabelled(prediction.mean, prediction.variance, y, (at - prediction.predictedAt) / 1000),
    expired: (_prediction, y) => metrics.recordExpired(y !== undefined),
    deadLetter: (reason) => metrics.recordDeadLetter(reason),
    pending: (count) => metrics.setPending(count),
  };
  return {
    vocabulary: { logged: 'prediction', outcome: 'outcome', joined: 'labelled', idField: 'predictionId', valueField: 'y', unknown: 'unknown-prediction', duplicate: 'duplicate-outcome', late: 'late-outcome' },
    idOf: (prediction) => prediction.predictionId,
    timeOf: (prediction) => prediction.predictedAt,
    snapshot: (model) => model.snapshot(),
    restore: (snapshot) => {
      if (snapshot.family !== family.id || snapshot.dim !== dim) throw new SnapshotError(`the state holds a ${snapshot.family} model of ${snapshot.dim} features, the learner's is ${family.id} of ${dim}`, { field: 'family' });
      return family.restore(snapshot, limits);
    },
    parseLogged: (body) => parseLoggedPrediction(body, dim, family.id),
    createModel: () => family.create(dim, familyOptions, limits),
    learn: (model, prediction, y) => {
      const problem = labelProblem(family.task, y, maxAbsInput);
      if (problem !== undefined) throw new JoinRefusal('bad-label', `y of prediction ${prediction.predictionId}: ${problem}`);
      model.update({ x: Float64Array.from(prediction.x), y: Float64Array.of(y), n: 1, d: dim });
    },
    merge: (into, other) => {
      if (into.merge === undefined) throw new ConfigError(`family ${family.id} cannot merge: the outcome learner runs it on one partition only (topics of one partition)`, { field: 'family', value: family.id });
      into.merge(other);
    },
    globalMeta: (combined) => {
      const offsets = Object.fromEntries(combined.outcomesOffsets.map((offset, p) => [String(p), offset]));
      return {
        model: name, topic: outcomesTopic, offsets, partitions: [...combined.partitions], skipped: [], records: combined.model.recordsSeen,
        version: Object.entries(offsets).map(([p, offset]) => `${p}:${offset}`).join(','),
      };
    },
    observer,
  };
}
