import { ConfigError } from '../core/config-error.js';
import { optionChecks } from '../core/option-checks.js';
import { Rng } from '../rng/rng.js';
import { sigmoid } from '../special/sigmoid.js';

/** Options of {@link SimulatedBandit}. */
export interface SimulatedBanditOptions {
  readonly arms: number;
  /** Context features; feature 0 is a constant 1 (bias), the others N(0, 1). */
  readonly dim: number;
  readonly seed: number;
  /** `logistic` (default): reward 1 with probability σ(θ_aᵀx); `gaussian`: reward θ_aᵀx + N(0, noise²). */
  readonly rewards?: 'logistic' | 'gaussian';
  /** Noise sd of the gaussian rewards (default 1). */
  readonly noise?: number;
  /** Random-walk drift: every `every` steps each arm weight moves by N(0, scale²). */
  readonly drift?: { readonly every: number; readonly scale: number };
}

/**
 * A seeded contextual bandit with known reward models: θ_a ~ N(0, I) at the start (then a random
 * walk with `drift`). Regret is the pseudo-regret max_a E[r | x, a] − E[r | x, played], so it measures
 * the policy, not the reward noise. Two instances with the same options see the same contexts and the
 * same reward noise, whatever is played (common random numbers).
 */
export class SimulatedBandit {
  readonly weights: Float64Array[];
  readonly rewards: 'logistic' | 'gaussian';
  private readonly noise: number;
  private readonly contextRng: Rng;
  private readonly rewardRng: Rng;
  private readonly driftRng: Rng;
  private steps = 0;

  constructor(readonly options: SimulatedBanditOptions) {
    optionChecks.positiveInteger('arms', options.arms, 0);
    optionChecks.positiveInteger('dim', options.dim, 0);
    this.rewards = options.rewards ?? 'logistic';
    if (this.rewards !== 'logistic' && this.rewards !== 'gaussian') throw new ConfigError('rewards must be logistic or gaussian', { field: 'rewards', value: this.rewards });
    this.noise = optionChecks.positive('noise', options.noise, 1);
    const root = Rng.fromSeed(options.seed);
    this.weights = Array.from({ length: options.arms }, () => Float64Array.from({ length: options.dim }, () => root.normal()));
    this.contextRng = root.split();
    this.rewardRng = root.split();
    this.driftRng = root.split();
  }

  /** The next context (advancing the drift clock). */
  context(): Float64Array {
    const { drift, dim } = this.options;
    if (drift !== undefined && this.steps > 0 && this.steps % drift.every === 0) {
      for (const w of this.weights) for (let j = 0; j < dim; j++) w[j] += drift.scale * this.driftRng.normal();
    }
    this.steps++;
    return Float64Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : this.contextRng.normal()));
  }

  /** E[reward | x, a] of every arm. */
  expectedRewards(x: Float64Array): Float64Array {
    return Float64Array.from(this.weights, (w) => {
      const score = w.reduce((s, wj, j) => s + wj * x[j], 0);
      return this.rewards === 'logistic' ? sigmoid(score) : score;
    });
  }

  /**
   * Draws the reward of every arm at x from one draw — a uniform (logistic) or a normal (gaussian) —
   * whatever is played, so the reward noise does not depend on the policy.
   */
  rewardsAt(x: Float64Array): Float64Array {
    const means = this.expectedRewards(x);
    if (this.rewards === 'logistic') {
      const u = this.rewardRng.nextDouble();
      return means.map((p) => (u < p ? 1 : 0));
    }
    const z = this.rewardRng.normal();
    return means.map((mean) => mean + this.noise * z);
  }

  /** Draws the reward of playing `arm` at x (one entry of {@link SimulatedBandit.rewardsAt}). */
  reward(x: Float64Array, arm: number): number {
    return this.rewardsAt(x)[arm];
  }
}
