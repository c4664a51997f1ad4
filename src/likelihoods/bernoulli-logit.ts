import { Rng } from '../rng/rng.js';
import { BernoulliLogitGaussHermite } from './bernoulli-logit-gauss-hermite.js';
import { BernoulliLogitJaakkolaJordan } from './bernoulli-logit-jaakkola-jordan.js';
import { BernoulliLogitMonteCarlo } from './bernoulli-logit-monte-carlo.js';
import { BernoulliLogitViper } from './bernoulli-logit-viper.js';
import type { GaussianExpectationLikelihood } from './likelihood.js';

/** The four interchangeable Bernoulli-logit evaluators: Jaakkola–Jordan/PG bound, VI-PER bound, Gauss–Hermite, Monte Carlo. */
export type BernoulliLogitMethod = 'jj' | 'viper' | 'gauss-hermite' | 'monte-carlo';

/**
 * The Bernoulli-logit evaluator for `method`: `l` (VI-PER, default 12), `points` (Gauss–Hermite,
 * default 100), `samples` and `seed` (Monte Carlo, defaults 1000 and 1) as in the paper.
 */
export function bernoulliLogit(method: BernoulliLogitMethod,
  options: { readonly l?: number; readonly points?: number; readonly samples?: number; readonly seed?: number } = {}): GaussianExpectationLikelihood {
  switch (method) {
    case 'jj': return new BernoulliLogitJaakkolaJordan();
    case 'viper': return new BernoulliLogitViper(options.l ?? 12);
    case 'gauss-hermite': return new BernoulliLogitGaussHermite(options.points ?? 100);
    case 'monte-carlo': return new BernoulliLogitMonteCarlo(options.samples ?? 1000, Rng.fromSeed(options.seed ?? 1));
  }
}
