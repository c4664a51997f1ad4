import type { Rng } from '../rng/rng.js';

/**
 * A predictive distribution of one label: what `OnlineModel.predict(x)` returns. `mean` and
 * `variance` are those of y; `interval(level)` is a central credible interval for y (or, for a
 * binary label, for the success probability under the posterior of the latent score).
 */
export interface Predictive {
  readonly kind: 'bernoulli' | 'gaussian' | 'student-t' | 'poisson';
  readonly mean: number;
  readonly variance: number;
  /** log p(y | x, data). Binary labels accept 0/1 or −1/1. */
  logProb(y: number): number;
  /** One draw of y from the predictive distribution. */
  sample(rng: Rng): number;
  /** Central interval with the given mass, `level` in (0, 1). */
  interval(level: number): [number, number];
}
