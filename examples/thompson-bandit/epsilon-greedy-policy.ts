import type { OnlineModel } from 'vbstream';
import { Rng } from 'vbstream';
import type { BanditChoice, BanditPolicy } from './bandit-policy.js';

/**
 * ε-greedy over the same per-arm logistic posteriors: with probability ε a uniformly random arm,
 * otherwise the arm with the largest posterior predictive p(reward = 1 | x). The propensity is exact:
 * 1 − ε + ε/K for the greedy arm, ε/K for the others.
 */
export class EpsilonGreedyPolicy implements BanditPolicy {
  readonly name: string;
  readonly dim: number;
  private readonly rng: Rng;

  constructor(private readonly models: readonly OnlineModel[], private readonly epsilon: number, seed: number) {
    this.dim = models[0].dim;
    this.rng = Rng.fromSeed(seed);
    this.name = `epsilon-greedy (${epsilon})`;
  }

  get arms(): number {
    return this.models.length;
  }

  choose(x: Float64Array): BanditChoice {
    const k = this.models.length;
    const scores = Float64Array.from(this.models, (m) => m.predict(x).mean);
    let greedy = 0;
    for (let a = 1; a < k; a++) if (scores[a] > scores[greedy]) greedy = a;
    const explore = this.rng.nextDouble() < this.epsilon;
    const arm = explore ? Math.min(k - 1, Math.floor(this.rng.nextDouble() * k)) : greedy;
    return { arm, scores, propensity: (arm === greedy ? 1 - this.epsilon : 0) + this.epsilon / k };
  }

  learn(x: Float64Array, arm: number, reward: number): void {
    this.models[arm].update({ x, y: Float64Array.of(reward), n: 1, d: this.dim });
  }
}
