import { InputError } from 'vbstream';
import type { BanditDecision, BanditPolicy } from 'vbstream/bandit';
import type { DecideRequest, RewardRequest } from './bandit-messages.js';

/** What `decide` answers (the policy's decision without its context, scores as a JSON array). */
export interface Decision {
  readonly decisionId: string;
  readonly arm: number;
  /** Each arm's score (for Thompson sampling, the sampled θ·x). */
  readonly scores: number[];
  readonly propensity: number;
  readonly propensityMethod: BanditDecision['propensityMethod'];
}

/**
 * The bandit backend, independent of transport: `decide` asks the policy for a decision and keeps it
 * under its decision id; `reward` looks the decision up and has the policy learn from it, once. HTTP
 * (`createBanditServer`) calls these; a Kafka consumer of decide/reward messages calls the same two
 * methods. At most `maxPending` decisions wait for a reward; beyond that the oldest is dropped (its
 * reward is then refused as unknown).
 */
export class BanditBackend {
  private readonly pending = new Map<string, BanditDecision>();
  /** Rewards learned so far. */
  rewards = 0;

  constructor(readonly policy: BanditPolicy, private readonly maxPending = 100_000) {}

  decide(request: DecideRequest): Decision {
    const decision = this.policy.decide(request.context);
    this.pending.set(decision.decisionId, decision);
    if (this.pending.size > this.maxPending) this.pending.delete(this.pending.keys().next().value!);
    const { decisionId, arm, scores, propensity, propensityMethod } = decision;
    return { decisionId, arm, scores: Array.from(scores), propensity, propensityMethod };
  }

  reward(request: RewardRequest): { readonly learned: true; readonly arm: number } {
    const decision = this.pending.get(request.decisionId);
    if (decision === undefined) throw new InputError('unknown or already rewarded decisionId', { field: 'decisionId', value: request.decisionId });
    this.pending.delete(request.decisionId);
    this.policy.learn(decision, request.reward);
    this.rewards++;
    return { learned: true, arm: decision.arm };
  }
}
