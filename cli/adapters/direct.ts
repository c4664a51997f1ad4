import { directCodec } from '../../src/models/direct/codec.js';
import { directFamily } from '../../src/models/direct/family.js';
import type { DirectOptions } from '../../src/models/direct/options.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';
import { predictiveMomentRows } from './predictive-moment-rows.js';

/**
 * `vbstream fit --model direct`: accumulates every row, fits q (CAVI-initialised L-BFGS, multi-start
 * with `restarts`; then the mixture fit when `components` > 1) and writes the posterior. `cov` is the
 * b×b covariance of w under q: diagonal under mean field, Σ_k π_k (diag V_k + s_k s_kᵀ) − s sᵀ for a
 * mixture (`extras.variance` is its diagonal, `extras.components` the mixture).
 */
export const directAdapter: FitAdapter = {
  id: 'direct',
  task: 'regression',
  optionKeys: ['supportSize', 'sigmaW', 'support', 'priorProbs', 'noiseSupport', 'noisePriorProbs', 'restarts', 'seed', 'maxIter', 'features',
    'caviSweeps', 'components', 'mixtureSteps', 'mixtureLearningRate', 'mixtureEntropy', 'entropySamples'],
  fit(data, options) {
    const model = directFamily.create(data.d, options as DirectOptions);
    model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    const p = model.posterior();
    const { b, mbar, support, noiseSupport } = model.grid;
    const cov = new Float64Array(b * b);
    const c = p.components;
    for (let k = 0; k < c.weights.length; k++) {
      for (let i = 0; i < b; i++) for (let j = 0; j < b; j++) cov[i * b + j] += c.weights[k] * c.means[k * b + i] * c.means[k * b + j];
    }
    for (let i = 0; i < b; i++) for (let j = 0; j < b; j++) cov[i * b + j] -= p.mean[i] * p.mean[j];
    for (let j = 0; j < b; j++) cov[j * b + j] = p.variance[j];
    const map = model.featureMap;
    return {
      posterior: {
        family: 'direct', version: directCodec.version, dim: b,
        mean: Array.from(p.mean),
        cov: jsonMatrix(cov, b),
        extras: {
          elbo: p.elbo, probs: jsonMatrix(p.probs, b, mbar), support: jsonMatrix(support, b, mbar),
          noiseProbs: Array.from(p.noiseProbs), noiseSupport: Array.from(noiseSupport), sparsity: p.sparsity,
          variance: Array.from(p.variance), expectedNoise: p.expectedNoise,
          iterations: p.iterations, converged: p.converged, startElbos: p.startElbos,
          ...(c.weights.length === 1 ? {} : { components: { weights: Array.from(c.weights), means: jsonMatrix(c.means, c.weights.length, b), variances: jsonMatrix(c.variances, c.weights.length, b) } }),
          ...(map === undefined ? {} : { features: { type: 'rff', count: map.count, omega: jsonMatrix(map.omega, map.inputDim, map.count), lengthscales: Array.from(map.lengthscales) } }),
        },
      },
      predictive: (x, offset) => model.predict(x, offset),
      predict: (x, n) => predictiveMomentRows(model, x, n, data.d),
    };
  },
};
