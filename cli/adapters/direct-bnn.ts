import { directBnnCodec } from '../../src/models/direct/bnn-codec.js';
import { directBnnFamily } from '../../src/models/direct/bnn-family.js';
import type { DirectBnnOptions } from '../../src/models/direct/bnn-options.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';
import { predictiveMomentRows } from './predictive-moment-rows.js';

/**
 * `vbstream fit --model direct-bnn`: accumulates every row, fits q (annealed L-BFGS, multi-start with
 * `restarts`) and writes the posterior of the b = H(d+1) + H + 1 weights (order u, v, c). `cov` is
 * diagonal because q factorises; `extras.hidden` is H.
 */
export const directBnnAdapter: FitAdapter = {
  id: 'direct-bnn',
  task: 'regression',
  optionKeys: ['hidden', 'supportSize', 'sigmaW', 'support', 'priorProbs', 'noiseSupport', 'noisePriorProbs', 'temperatures', 'initScale', 'restarts', 'seed', 'maxIter'],
  fit(data, options) {
    const model = directBnnFamily.create(data.d, options as DirectBnnOptions);
    model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    const p = model.posterior();
    const { b, mbar, support, noiseSupport } = model.grid;
    const cov = new Float64Array(b * b);
    for (let j = 0; j < b; j++) cov[j * b + j] = p.variance[j];
    return {
      posterior: {
        family: 'direct-bnn', version: directBnnCodec.version, dim: b,
        mean: Array.from(p.mean),
        cov: jsonMatrix(cov, b),
        extras: {
          hidden: model.shape.H, elbo: p.elbo, probs: jsonMatrix(p.probs, b, mbar), support: jsonMatrix(support, b, mbar),
          noiseProbs: Array.from(p.noiseProbs), noiseSupport: Array.from(noiseSupport), sparsity: p.sparsity,
          variance: Array.from(p.variance), expectedNoise: p.expectedNoise,
          iterations: p.iterations, converged: p.converged, startElbos: p.startElbos,
        },
      },
      predictive: (x, offset) => model.predict(x, offset),
      predict: (x, n) => predictiveMomentRows(model, x, n, data.d),
    };
  },
};
