import { Rng } from 'vbstream';

/** Options of {@link BanditEnvironment}. */
export interface BanditEnvironmentOptions {
  readonly arms: number;
  /** Context features; feature 0 is a constant 1 (bias), the others N(0, 1). */
  readonly dim: number;
  readonly seed: number;
  /** Random-walk drift: every `every` steps each arm weight moves by N(0, scale²). */
  readonly drift?: { readonly every: number; readonly scale: number };
}

/**
 * A seeded contextual bandit with a known logistic reward model: arm k pays 1 with probability
 * σ(θ_kᵀx), θ_k ~ N(0, I) at the start (then a random walk with `drift`). Regret is the pseudo-regret
 * max_k σ(θ_kᵀx) − σ(θ_aᵀx) of the arm a played, so it measures the policy, not the reward noise.
 */
export class BanditEnvironment {
  readonly weights: Float64Array[];
  private readonly contextRng: Rng;
  private readonly rewardRng: Rng;
  private readonly driftRng: Rng;
  private steps = 0;

  constructor(readonly options: BanditEnvironmentOptions) {
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

  /** p(reward = 1) of every arm at x. */
  expectedRewards(x: Float64Array): Float64Array {
    return Float64Array.from(this.weights, (w) => 1 / (1 + Math.exp(-w.reduce((s, wj, j) => s + wj * x[j], 0))));
  }

  /** Draws the reward of playing `arm` at x. */
  reward(x: Float64Array, arm: number): number {
    return this.rewardRng.nextDouble() < this.expectedRewards(x)[arm] ? 1 : 0;
  }
}
