import { ConfigError } from '../../src/core/config-error.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import { optionChecks } from '../../src/core/option-checks.js';
import type { Family } from '../../src/core/family.js';
import { sparseGpClassifierFamily, sparseGpCountFamily, sparseGpFamily, type SparseGpModel } from '../../src/models/sparse-gp/family.js';
import type { SparseGpLikelihoodName, SparseGpOptions } from '../../src/models/sparse-gp/options.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

const LIKELIHOODS: { readonly [name: string]: SparseGpLikelihoodName } = {
  gaussian: 'gaussian', probit: 'bernoulli-probit', 'bernoulli-probit': 'bernoulli-probit',
  logit: 'bernoulli-logit', 'bernoulli-logit': 'bernoulli-logit', poisson: 'poisson',
};
const FAMILY: { readonly [name in SparseGpLikelihoodName]: Family<SparseGpOptions, SparseGpModel> } = {
  gaussian: sparseGpFamily, 'bernoulli-probit': sparseGpClassifierFamily, 'bernoulli-logit': sparseGpClassifierFamily, poisson: sparseGpCountFamily,
};
const TRAINING_KEYS = ['iterations', 'batchSize', 'window', 'tolerance'];
const MODEL_KEYS = ['likelihood', 'objective', 'M', 'beta', 'kernel', 'noiseVariance', 'Z', 'zInit', 'fixed', 'seed', 'learningRate', 'whitened', 'estimator', 'samples', 'jitter', 'mean'];

/**
 * `vbstream fit --model sparse-gp | sparse-gp-classifier | sparse-gp-count`: trains a sparse GP on
 * all rows with `objective` `elbo` (default), `dlm` or `sq-dlm` (minibatches in file order, Adam, the
 * paper's stopping rule on the per-record objective) and reports q(u), Z and the hyperparameters;
 * `extras.objective` is the minimised objective in the paper's sum form Σ_i loss_i + β·R (not divided
 * by n) on the training set. The family follows the likelihood (`gaussian` for sparse-gp, `probit`
 * (default) or `logit` for the classifier, `poisson` for counts).
 */
function adapter(id: 'sparse-gp' | 'sparse-gp-classifier' | 'sparse-gp-count', fallback: string): FitAdapter {
  return {
    id,
    task: id === 'sparse-gp-classifier' ? 'classification' : id === 'sparse-gp-count' ? 'count' : 'regression',
    optionKeys: [...MODEL_KEYS, ...TRAINING_KEYS],
    fit(data, options) {
      const { iterations, batchSize, window, tolerance, likelihood, objective, ...rest } = options;
      const rawLikelihood = likelihood ?? fallback;
      const name = LIKELIHOODS[rawLikelihood as string];
      if (typeof rawLikelihood !== 'string' || name === undefined) throw new ConfigError(`must be one of ${Object.keys(LIKELIHOODS).join(', ')}`, { field: 'likelihood', value: rawLikelihood });
      const regression = name === 'gaussian';
      const family = FAMILY[name];
      if (family.id !== id) throw new ConfigError(`likelihood ${rawLikelihood} belongs to --model ${family.id}, not ${id}`, { field: 'likelihood', value: rawLikelihood });
      const chosen = optionChecks.oneOf('objective', objective, 'elbo', ['elbo', 'dlm', 'sq-dlm'] as const);
      const modelOptions = { learningRate: 0.05, ...rest, likelihood: name, objective: chosen } as SparseGpOptions;
      const model = family.create(data.d, modelOptions);
      const result = model.fit(data.x, data.y, data.n, {
        maxIterations: optionChecks.positiveInteger('iterations', iterations, regression ? 5000 : 3000),
        batchSize: optionChecks.positiveInteger('batchSize', batchSize, data.n),
        window: optionChecks.positiveInteger('window', window, regression ? 50 : 20),
        tolerance: optionChecks.positive('tolerance', tolerance, 1e-4),
      });
      const q = model.inducingPosterior();
      const h = model.hyperparameters();
      const M = model.options.M;
      const d = data.d;
      const extras: { [key: string]: JsonValue } = {
        objectiveName: chosen, likelihood: name, objective: model.objectiveValue(data.x, data.y, data.n), beta: model.options.beta,
        Z: jsonMatrix(h.Z, M, d), m: Array.from(q.mean), L: jsonMatrix(q.factor, M),
        kernel: { type: model.options.ard ? 'rbf-ard' : 'rbf', variance: h.variance, lengthscale: model.options.ard ? h.lengthscale : h.lengthscale[0] },
        noiseVariance: name === 'gaussian' ? h.noiseVariance : null, meanConstant: h.meanConstant,
        whitened: model.options.whitened, iterations: result.iterations, converged: result.converged,
      };
      return {
        posterior: { family: family.id, version: model.snapshot().version, dim: d, mean: Array.from(q.mean), cov: jsonMatrix(q.cov, M), extras },
        predictive: (x, offset) => model.predict(x, offset),
        predict(x, n) {
          const latent = model.predictLatent(x, n);
          const mean: number[] = [];
          const variance: number[] = [];
          for (let r = 0; r < n; r++) {
            const p = model.predictiveFromLatent(latent.mean[r], latent.variance[r]);
            mean.push(p.mean);
            variance.push(p.variance);
          }
          const out: { [key: string]: JsonValue } = { mean, variance, fMean: Array.from(latent.mean), fVariance: Array.from(latent.variance) };
          if (name === 'bernoulli-probit' || name === 'bernoulli-logit') out.prob = mean;
          return out;
        },
      };
    },
  };
}

/** `vbstream fit --model sparse-gp`: sparse GP regression. */
export const sparseGpAdapter = adapter('sparse-gp', 'gaussian');
/** `vbstream fit --model sparse-gp-classifier`: binary labels, probit (default) or logit. */
export const sparseGpClassifierAdapter = adapter('sparse-gp-classifier', 'probit');
/** `vbstream fit --model sparse-gp-count`: Poisson counts. */
export const sparseGpCountAdapter = adapter('sparse-gp-count', 'poisson');
