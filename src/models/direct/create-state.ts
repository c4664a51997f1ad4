import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import { rffFromOptions } from './feature-options.js';
import { buildDirectGrid } from './grid.js';
import { DirectMixtureElbo } from './mixture-objective.js';
import type { DirectOptions } from './options.js';
import type { DirectState } from './state.js';

function mixtureEntropy(value: unknown): 'stochastic' | 'bound' {
  if (value === undefined) return 'stochastic';
  if (value !== 'stochastic' && value !== 'bound') throw new ConfigError("must be 'stochastic' or 'bound'", { field: 'mixtureEntropy', value });
  return value;
}

/**
 * The state of a `direct` model with no data whose records carry `dim` values (Φ, or raw inputs when
 * `features` is set): q equal to the prior (the authors' initialisation). A bad option value throws
 * `ConfigError`.
 */
export function createDirectState(dim: number, options: DirectOptions): DirectState {
  const features = rffFromOptions(dim, options.features);
  const b = features === undefined ? dim : features.outputDim;
  const grid = buildDirectGrid(b, options, true);
  const seed = optionChecks.nonNegative('seed', options.seed, 1);
  if (!Number.isSafeInteger(seed)) throw new ConfigError('must be a non-negative integer', { field: 'seed', value: seed });
  const settings = {
    restarts: optionChecks.positiveInteger('restarts', options.restarts, 1),
    seed,
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 1000),
    refitEvery: options.refitEvery === undefined || options.refitEvery === 0 ? 0 : optionChecks.positiveInteger('refitEvery', options.refitEvery, 0),
    caviSweeps: options.caviSweeps === 0 ? 0 : optionChecks.positiveInteger('caviSweeps', options.caviSweeps, 200),
    components: optionChecks.positiveInteger('components', options.components, 1),
    mixtureSteps: optionChecks.positiveInteger('mixtureSteps', options.mixtureSteps, 500),
    mixtureLearningRate: optionChecks.positive('mixtureLearningRate', options.mixtureLearningRate, 0.05),
    mixtureEntropy: mixtureEntropy(options.mixtureEntropy),
    entropySamples: optionChecks.positiveInteger('entropySamples', options.entropySamples, 3000),
  };
  const logits = new Float64Array(grid.b * grid.mbar + grid.K);
  logits.set(grid.logPrior);
  logits.set(grid.logNoisePrior, grid.b * grid.mbar);
  return {
    dim, grid, features, settings,
    stats: { b, gram: new Float64Array(b * b), phiTy: new Float64Array(b), yty: 0, n: 0, records: 0, complete: true },
    logits, mixture: new Float64Array(settings.components === 1 ? 0 : DirectMixtureElbo.sizeFor(grid, settings.components)),
    stale: true, sinceFit: 0, lastFit: { iterations: 0, converged: true, startElbos: [] },
  };
}
