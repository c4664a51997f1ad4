import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { EpsilonGreedyPolicy, type EpsilonGreedyPolicyOptions } from '../../src/bandit/epsilon-greedy-policy.js';
import { LinUcbPolicy, type LinUcbPolicyOptions } from '../../src/bandit/lin-ucb-policy.js';
import { ThompsonPolicy, type ThompsonPolicyOptions } from '../../src/bandit/thompson-policy.js';
import { ConfigError } from '../../src/core/config-error.js';

/** A policy as configuration (JSON): its kind and the options of its class. */
export type BanditPolicyConfig =
  | ({ readonly kind: 'thompson' } & ThompsonPolicyOptions)
  | ({ readonly kind: 'lin-ucb' } & LinUcbPolicyOptions)
  | ({ readonly kind: 'epsilon-greedy' } & EpsilonGreedyPolicyOptions);

/** A fresh policy from its configuration (what the learner service starts from). */
export function createBanditPolicy(config: BanditPolicyConfig): BanditPolicy {
  switch (config.kind) {
    case 'thompson': return new ThompsonPolicy(config);
    case 'lin-ucb': return new LinUcbPolicy(config);
    case 'epsilon-greedy': return new EpsilonGreedyPolicy(config);
    default: throw new ConfigError(`unknown policy kind ${JSON.stringify((config as { kind: unknown }).kind)}: thompson, lin-ucb or epsilon-greedy`, { field: 'kind', value: (config as { kind: unknown }).kind as string });
  }
}
