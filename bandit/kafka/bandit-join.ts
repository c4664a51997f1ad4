import type { KeyedJoin } from '../../connectors/kafka/keyed-join/keyed-join.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { mergePolicy } from '../../src/bandit/merge-policy.js';
import { BANDIT_STATE_CODEC } from './bandit-state-codec.js';
import type { BanditMetrics } from './bandit-metrics.js';
import type { LoggedDecision } from './logged-decision.js';
import { parseLoggedDecision } from './parse-logged-decision.js';

/**
 * The bandit learner as a keyed join: a reward is an outcome joined to a logged decision, learned
 * by the partition's policy on the decision's context and arm; the partitions' policies merge with
 * `mergePolicy` and are published with the meta the deciders read (`{model, rewards, pending,
 * partitions, rewardsOffsets}`); the join's events feed the `BanditMetrics` when given.
 */
export function banditJoin(options: { readonly model: string; readonly createPolicy: () => BanditPolicy; readonly metrics?: BanditMetrics }): KeyedJoin<LoggedDecision, BanditPolicy> {
  const { model, createPolicy, metrics } = options;
  return {
    ...BANDIT_STATE_CODEC,
    parseLogged: (body, policy) => parseLoggedDecision(body, policy.arms, policy.dim),
    createModel: createPolicy,
    learn: (policy, decision, reward) => policy.learn({ context: Float64Array.from(decision.context), arm: decision.arm }, reward),
    merge: mergePolicy,
    globalMeta: (combined) => ({ model, rewards: combined.learned, pending: combined.pending, partitions: [...combined.partitions], rewardsOffsets: [...combined.outcomesOffsets] }),
    observer: metrics === undefined ? undefined : {
      logged: (decision) => metrics.recordDecision(decision.propensity, decision.arm),
      joined: (decision, reward, at) => metrics.recordReward(Math.max(0, at - decision.decidedAt) / 1000, reward),
      expired: (_decision, reward) => metrics.recordExpired(reward !== undefined),
      deadLetter: (reason) => metrics.recordDeadLetter(reason),
      pending: (count) => metrics.setPending(count),
    },
  };
}
