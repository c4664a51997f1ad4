import type { Batch } from '../../src/core/batch.js';
import type { Family } from '../../src/core/family.js';
import { viGaussHermiteFamily, viMonteCarloFamily, viPerFamily, viPerMeanFieldFamily, type ViPerModel, type ViPerOptions } from '../../src/models/vi-per/index.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

/**
 * `vbstream fit --model <id>` for the vi-per families: one update with every row (the batch fit);
 * `cov` is Σ (diagonal for `vi-per-mf`); extras: `objective` (F at the optimum: F_l, the exact
 * ELBO or its MC estimate), `iterations` (L-BFGS), `l`, `method`, and `L`, the Cholesky factor of Σ.
 */
function adapterFor(family: Family<ViPerOptions, ViPerModel>): FitAdapter {
  return {
    id: family.id,
    task: 'classification',
    optionKeys: Object.keys(family.options),
    fit(data, options) {
      const model = family.create(data.d, options as ViPerOptions);
      const batch: Batch = { x: data.x, y: data.y, n: data.n, d: data.d };
      model.update(batch);
      const d = data.d;
      const { objective, iterations, settings } = model.diagnostics;
      return {
        posterior: {
          family: family.id, version: model.snapshot().version, dim: d, mean: Array.from(model.posteriorMean()), cov: jsonMatrix(model.covariance(), d),
          extras: { objective, iterations, l: settings.l, method: settings.method, L: jsonMatrix(model.choleskyFactor(), d) },
        },
        predictive: (x, offset) => model.predict(x, offset),
        predict: (x, n) => ({ prob: Array.from({ length: n }, (_, r) => model.predict(x, r * d).prob) }),
      };
    },
  };
}

/** `vbstream fit --model vi-per`. */
export const viPerAdapter = adapterFor(viPerFamily);
/** `vbstream fit --model vi-per-mf`. */
export const viPerMeanFieldAdapter = adapterFor(viPerMeanFieldFamily);
/** `vbstream fit --model vi-gh`. */
export const viGaussHermiteAdapter = adapterFor(viGaussHermiteFamily);
/** `vbstream fit --model vi-mc`. */
export const viMonteCarloAdapter = adapterFor(viMonteCarloFamily);
