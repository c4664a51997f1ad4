import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { SimulatedBandit, type SimulatedBanditOptions } from './simulated-bandit.js';

/** One policy's run: cumulative pseudo-regret after each step, and the rewards it collected. */
export interface RegretCurve {
  readonly name: string;
  readonly cumulative: Float64Array;
  readonly totalReward: number;
}

/**
 * Runs `policy` for `steps` steps against a fresh {@link SimulatedBandit}: decide, draw the reward,
 * learn. `observe` sees each decision and its reward before the policy learns it.
 */
export function simulateBandit(policy: BanditPolicy, environment: SimulatedBanditOptions, steps: number, observe?: (played: PlayedArm, reward: number) => void): RegretCurve {
  const world = new SimulatedBandit(environment);
  const cumulative = new Float64Array(steps);
  let regret = 0;
  let totalReward = 0;
  for (let t = 0; t < steps; t++) {
    const context = world.context();
    const decision = policy.decide(context);
    const expected = world.expectedRewards(context);
    regret += Math.max(...expected) - expected[decision.arm];
    cumulative[t] = regret;
    const reward = world.reward(context, decision.arm);
    totalReward += reward;
    observe?.(decision, reward);
    policy.learn(decision, reward);
  }
  return { name: policy.name, cumulative, totalReward };
}
