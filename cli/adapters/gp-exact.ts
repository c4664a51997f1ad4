import { gpExactFamily } from '../../src/models/gp-exact/family.js';
import type { GpExactOptions } from '../../src/models/gp-exact/options.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

/**
 * `vbstream fit --model gp-exact`: exact GP regression with maximum-marginal-likelihood hyperparameters.
 * posterior.json: `mean`/`cov` are the posterior of f at the training inputs; extras the hyperparameters,
 * log marginal likelihood and `objective` = −log p(y | X, θ).
 */
export const gpExactAdapter: FitAdapter = {
  id: 'gp-exact',
  task: 'regression',
  optionKeys: ['kernel', 'noiseVariance', 'fixed', 'maxIterations'],
  fit(data, options) {
    const model = gpExactFamily.create(data.d, options as GpExactOptions);
    const stats = model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    const h = model.hyperparameters();
    const train = model.predictLatent(data.x, data.n);
    const ard = model.ard;
    const n = data.n;
    const cov = model.latentCovariance(data.x, n);
    return {
      posterior: {
        family: 'gp-exact', version: model.snapshot().version, dim: data.d, mean: Array.from(train.mean), cov: jsonMatrix(cov, n),
        extras: {
          kernel: { type: ard ? 'rbf-ard' : 'rbf', variance: h.variance, lengthscale: ard ? h.lengthscale : h.lengthscale[0] },
          noiseVariance: h.noiseVariance, logMarginalLikelihood: model.logMarginal, objective: -model.logMarginal, iterations: stats.iterations ?? 0,
        },
      },
      predictive: (x, offset) => model.predict(x, offset),
      predict(x, rows) {
        const latent = model.predictLatent(x, rows);
        return {
          mean: Array.from(latent.mean), variance: Array.from(latent.variance, (v) => v + h.noiseVariance),
          fMean: Array.from(latent.mean), fVariance: Array.from(latent.variance),
        };
      },
    };
  },
};
