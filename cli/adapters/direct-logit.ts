import { optionChecks } from '../../src/core/option-checks.js';
import { signedLabels } from '../../src/core/signed-labels.js';
import { validateBatch } from '../../src/core/validate-batch.js';
import { directLogitCodec } from '../../src/models/direct/logit-codec.js';
import { directLogitFamily } from '../../src/models/direct/logit-family.js';
import type { DirectLogitOptions } from '../../src/models/direct/logit-options.js';
import { Rng } from '../../src/rng/rng.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

/**
 * `vbstream fit --model direct-logit`: `epochs` passes (default 500) of minibatch Adam over the rows
 * in a seeded shuffled order, `batchSize` rows per step (default: all rows), the likelihood scaled
 * by n/|batch|. Every row is validated before the first step (errors name the file row). `cov` is diagonal because q factorises; `extras.elboBound` is the Theorem-2 bound on
 * all rows (≤ the true ELBO ≤ log p(y)).
 */
export const directLogitAdapter: FitAdapter = {
  id: 'direct-logit',
  task: 'classification',
  optionKeys: ['supportSize', 'sigmaW', 'support', 'priorProbs', 'learningRate', 'features', 'epochs', 'batchSize', 'seed'],
  fit(data, options) {
    const { epochs: e, batchSize: bs, seed: sd, ...modelOptions } = options;
    const epochs = optionChecks.positiveInteger('epochs', e, 500);
    const batchSize = Math.min(data.n, optionChecks.positiveInteger('batchSize', bs, Math.max(1, data.n)));
    const seed = optionChecks.nonNegative('seed', sd, 1);
    const model = directLogitFamily.create(data.d, { ...(modelOptions as DirectLogitOptions), dataSize: data.n });
    const all = { x: data.x, y: data.y, n: data.n, d: data.d };
    validateBatch(all, data.d);
    signedLabels(all, new Float64Array(data.n));
    const rng = Rng.fromSeed(seed);
    const order = Array.from({ length: data.n }, (_, i) => i);
    const x = new Float64Array(batchSize * data.d);
    const y = new Float64Array(batchSize);
    for (let epoch = 0; epoch < epochs; epoch++) {
      for (let i = data.n - 1; i > 0; i--) { const k = Math.floor(rng.nextDouble() * (i + 1)); [order[i], order[k]] = [order[k], order[i]]; }
      for (let start = 0; start < data.n; start += batchSize) {
        const rows = Math.min(batchSize, data.n - start);
        for (let r = 0; r < rows; r++) {
          const i = order[start + r];
          x.set(data.x.subarray(i * data.d, (i + 1) * data.d), r * data.d);
          y[r] = data.y[i];
        }
        model.update({ x: x.subarray(0, rows * data.d), y: y.subarray(0, rows), n: rows, d: data.d });
      }
    }
    const { b, mbar, support } = model.grid;
    const variance = model.posteriorVariance();
    const cov = new Float64Array(b * b);
    for (let j = 0; j < b; j++) cov[j * b + j] = variance[j];
    return {
      posterior: {
        family: 'direct-logit', version: directLogitCodec.version, dim: b,
        mean: Array.from(model.posteriorMean()), cov: jsonMatrix(cov, b),
        extras: {
          elboBound: model.elboBound(all), probs: jsonMatrix(model.probs(), b, mbar), support: jsonMatrix(support, b, mbar),
          sparsity: model.sparsity(), variance: Array.from(variance), epochs, batchSize,
        },
      },
      predict(xs, n) {
        return { prob: Array.from({ length: n }, (_, r) => model.predict(xs, r * data.d).prob) };
      },
      predictive: (x, offset) => model.predict(x, offset),
    };
  },
};
