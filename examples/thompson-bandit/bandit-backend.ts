import { InputError } from 'vbstream';
import type { BanditPolicy } from './bandit-policy.js';
import type { DecideRequest, RewardRequest } from './bandit-messages.js';

/** What `decide` answers. */
export interface Decision {
  readonly decisionId: string;
  readonly arm: number;
  /** Each arm's score (for Thompson sampling, the sampled θ·x). */
  readonly scores: number[];
  readonly propensity: number;
}

/**
 * The bandit backend, independent of transport: `decide` asks the policy for an arm and remembers
 * the context under a fresh decision id; `reward` looks the decision up and has the policy learn
 * from it, once. HTTP (`createBanditServer`) calls these; a Kafka consumer of decide/reward
 * messages calls the same two methods. At most `maxPending` decisions wait for a reward; beyond
 * that the oldest is dropped (its reward is then refused as unknown).
 */
export class BanditBackend {
  private readonly pending = new Map<string, { readonly context: Float64Array; readonly arm: number }>();
  private next = 0;
  /** Rewards learned so far. */
  rewards = 0;

  constructor(readonly policy: BanditPolicy, private readonly maxPending = 100_000) {}

  decide(request: DecideRequest): Decision {
    const choice = this.policy.choose(request.context);
    const decisionId = `d${++this.next}`;
    this.pending.set(decisionId, { context: request.context, arm: choice.arm });
    if (this.pending.size > this.maxPending) this.pending.delete(this.pending.keys().next().value!);
    return { decisionId, arm: choice.arm, scores: Array.from(choice.scores), propensity: choice.propensity };
  }

  reward(request: RewardRequest): { readonly learned: true; readonly arm: number } {
    const decision = this.pending.get(request.decisionId);
    if (decision === undefined) throw new InputError('unknown or already rewarded decisionId', { field: 'decisionId', value: request.decisionId });
    this.pending.delete(request.decisionId);
    this.policy.learn(decision.context, decision.arm, request.reward);
    this.rewards++;
    return { learned: true, arm: decision.arm };
  }
}
