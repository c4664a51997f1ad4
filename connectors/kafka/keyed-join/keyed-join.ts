import type { JsonValue } from '../../../src/core/model-snapshot.js';
import type { CombinedJoinModel } from './combined-join-model.js';
import type { JoinObserver } from './join-observer.js';
import type { JoinStateCodec } from './join-state-codec.js';

/**
 * What a {@link KeyedJoinLearner} joins and learns: how a logged record is read, the per-partition
 * model (created fresh, taught an outcome of a logged record, snapshotted and restored, merged into
 * the published one), the meta the merged model is published with, and hooks for metrics. A bandit
 * reward joined to a logged decision and a label joined to a logged prediction are two of these.
 */
export interface KeyedJoin<L, M> extends JoinStateCodec<L, M> {
  /**
   * A logged-topic value (parsed JSON) as a logged record for a partition whose model is `model`;
   * a bad one throws an `InputError` (dead letter `bad-shape`) or a `JoinRefusal` (its reason).
   */
  parseLogged(body: unknown, model: M): L;
  /** A model with nothing learned (a fresh partition's, and the start of the merge). */
  createModel(): M;
  /**
   * The model learns `value`, the outcome of `logged`. A `JoinRefusal` refuses the outcome with its
   * reason, any other non-retriable `VbstreamError` as `refused-by-model`; either leaves the model
   * as it was and the record pending.
   */
  learn(model: M, logged: L, value: number): void;
  /** Folds `other` — the model of another partition — into `into`; a `ConfigError` when the model cannot merge (the join then runs on one partition only). */
  merge(into: M, other: M): void;
  /** The header meta the merged model is published with under `model/global`. */
  globalMeta(combined: CombinedJoinModel<M>): { [key: string]: JsonValue };
  readonly observer?: JoinObserver<L>;
}
