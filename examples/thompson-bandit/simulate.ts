import { BanditBackend } from './bandit-backend.js';
import { BanditEnvironment, type BanditEnvironmentOptions } from './bandit-environment.js';
import type { BanditPolicy } from './bandit-policy.js';

/** One policy's run: cumulative pseudo-regret after each step, and the rewards it collected. */
export interface RegretCurve {
  readonly name: string;
  readonly cumulative: Float64Array;
  readonly totalReward: number;
}

/**
 * Runs `policy` through a {@link BanditBackend} (decide, then reward by decision id: the same path
 * as the HTTP service) against a fresh environment for `steps` steps. Every policy run with the same
 * environment options sees the same contexts and the same reward noise (common random numbers).
 * `observe` sees each (context, arm, reward) before it is learned.
 */
export function simulate(policy: BanditPolicy, environment: BanditEnvironmentOptions, steps: number, observe?: (x: Float64Array, arm: number, reward: number) => void): RegretCurve {
  const world = new BanditEnvironment(environment);
  const backend = new BanditBackend(policy);
  const cumulative = new Float64Array(steps);
  let regret = 0;
  let totalReward = 0;
  for (let t = 0; t < steps; t++) {
    const context = world.context();
    const decision = backend.decide({ context });
    const expected = world.expectedRewards(context);
    regret += Math.max(...expected) - expected[decision.arm];
    cumulative[t] = regret;
    const reward = world.reward(context, decision.arm) as 0 | 1;
    totalReward += reward;
    observe?.(context, decision.arm, reward);
    backend.reward({ decisionId: decision.decisionId, reward });
  }
  return { name: policy.name, cumulative, totalReward };
}
