import { Subject } from 'rxjs';
import { ConfigError, Rng } from 'vbstream';
import type { OnlineModel } from 'vbstream';
import { dot } from 'vbstream/linalg';
import { thompson } from 'vbstream/operators';
import type { ThompsonDecision } from 'vbstream/operators';
import type { BanditChoice, BanditPolicy } from './bandit-policy.js';

/** Options of {@link ThompsonPolicy}. */
export interface ThompsonPolicyOptions {
  readonly seed: number;
  /** Posterior draws per arm for the Monte Carlo propensity (default 200). */
  readonly propensityDraws?: number;
  /** Forgetting factor γ applied to every arm before each reward is learned (default 1: none). */
  readonly forget?: number;
}

/**
 * Thompson sampling over per-arm logistic posteriors, through the `thompson` operator: each context
 * is pushed into the operator, which draws θ from every arm and picks the largest θ·x. The
 * propensity of the choice, P(its sampled score is the largest), is estimated by Monte Carlo with
 * its own seeded generator: `propensityDraws` fresh joint draws of all arms, counting wins.
 */
export class ThompsonPolicy implements BanditPolicy {
  readonly name: string;
  readonly dim: number;
  private readonly contexts = new Subject<{ readonly x: Float64Array }>();
  private decision: ThompsonDecision<{ readonly x: Float64Array }> | undefined;
  private readonly propensityRng: Rng;
  private readonly theta: Float64Array;
  private readonly draws: number;
  private readonly forget: number;

  constructor(readonly models: readonly OnlineModel[], options: ThompsonPolicyOptions) {
    this.dim = models[0].dim;
    this.draws = options.propensityDraws ?? 200;
    this.forget = options.forget ?? 1;
    if (this.forget < 1 && models.some((m) => m.forget === undefined)) throw new ConfigError(`family "${models[0].family}" has no forget(); forgetting needs vb-logit-online or pg-logit`, { field: 'forget', value: this.forget });
    this.name = this.forget < 1 ? `thompson (forget ${this.forget})` : 'thompson';
    this.theta = new Float64Array(this.dim);
    this.propensityRng = Rng.fromSeed(options.seed).split();
    const arms = new Map(models.map((m, a): [string, OnlineModel] => [`arm-${a}`, m]));
    this.contexts.pipe(thompson(arms, { seed: options.seed })).subscribe((decision) => { this.decision = decision; });
  }

  get arms(): number {
    return this.models.length;
  }

  choose(x: Float64Array): BanditChoice {
    this.decision = undefined;
    this.contexts.next({ x });
    const decision = this.decision as ThompsonDecision<{ readonly x: Float64Array }> | undefined;
    if (decision === undefined) throw new ConfigError('the thompson operator refused the context');
    return { arm: decision.index, scores: decision.draws, propensity: this.propensity(x, decision.index) };
  }

  /** Monte Carlo estimate of P(arm's sampled score is the largest | x). */
  propensity(x: Float64Array, arm: number): number {
    if (this.draws === 0) return Number.NaN;
    let wins = 0;
    for (let s = 0; s < this.draws; s++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let a = 0; a < this.models.length; a++) {
        const score = dot(this.models[a].sample(this.propensityRng, this.theta), x, this.dim);
        if (score > bestScore) [best, bestScore] = [a, score];
      }
      if (best === arm) wins++;
    }
    return wins / this.draws;
  }

  /** The posterior predictive p(reward = 1 | x) of an arm. */
  probability(x: Float64Array, arm: number): number {
    return this.models[arm].predict(x).mean;
  }

  learn(x: Float64Array, arm: number, reward: number): void {
    if (this.forget < 1) for (const model of this.models) model.forget!(this.forget);
    this.models[arm].update({ x, y: Float64Array.of(reward), n: 1, d: this.dim });
  }
}
