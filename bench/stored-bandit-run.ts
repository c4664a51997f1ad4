import { SimulatedBandit, type SimulatedBanditOptions } from '../src/bandit/index.js';

/** A simulated bandit's first `steps` steps, stored: contexts (steps×dim), every arm's drawn reward and every arm's expected reward (steps×arms), row-major. */
export interface StoredBanditRun {
  readonly x: Float64Array;
  readonly rewards: Float64Array;
  readonly expected: Float64Array;
}

/** Plays a fresh {@link SimulatedBandit} for `steps` steps and keeps what every policy would see, so that peers in other processes replay the same bandit. */
export function storedBanditRun(world: SimulatedBanditOptions, steps: number): StoredBanditRun {
  const { arms, dim } = world;
  const bandit = new SimulatedBandit(world);
  const x = new Float64Array(steps * dim);
  const rewards = new Float64Array(steps * arms);
  const expected = new Float64Array(steps * arms);
  for (let t = 0; t < steps; t++) {
    const context = bandit.context();
    x.set(context, t * dim);
    expected.set(bandit.expectedRewards(context), t * arms);
    rewards.set(bandit.rewardsAt(context), t * arms);
  }
  return { x, rewards, expected };
}
