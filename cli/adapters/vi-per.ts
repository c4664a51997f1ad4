import type { Batch } from '../../src/core/batch.js';
import { VI_PER_SNAPSHOT_VERSION } from '../../src/models/vi-per/codec.js';
import { viGaussHermiteFamily, viMonteCarloFamily, viPerFamily, viPerMeanFieldFamily } from '../../src/models/vi-per/index.js';
import type { ViPerModel } from '../../src/models/vi-per/model.js';
import type { ViPerOptions } from '../../src/models/vi-per/options.js';
import type { FamilyDescriptor } from '../../src/core/family-descriptor.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

const OPTION_KEYS = ['prior', 'covariance', 'method', 'l', 'points', 'samples', 'seed', 'tol', 'maxIter', 'streaming', 'learningRate', 'stepsPerBatch', 'dataSize'];

/**
 * `vbstream fit --model <id>` for the vi-per families: one update with every row (the batch fit);
 * `cov` is Σ (diagonal for `vi-per-mf`); extras: `objective` (F at the optimum: F_l, the exact
 * ELBO or its MC estimate), `iterations` (L-BFGS), `l`, `method`, and `L`, the Cholesky factor of Σ.
 */
function adapterFor(family: FamilyDescriptor<ViPerOptions>): FitAdapter {
  return {
    id: family.id,
    task: 'classification',
    optionKeys: OPTION_KEYS,
    fit(data, options) {
      const model = family.create(data.d, options as ViPerOptions) as ViPerModel;
      const batch: Batch = { x: data.x, y: data.y, n: data.n, d: data.d };
      model.update(batch);
      const d = data.d;
      const { objective, iterations, settings } = model.diagnostics;
      return {
        posterior: {
          family: family.id, version: VI_PER_SNAPSHOT_VERSION, dim: d, mean: Array.from(model.posteriorMean()), cov: jsonMatrix(model.covariance(), d),
          extras: { objective, iterations, l: settings.l, method: settings.method, L: jsonMatrix(model.choleskyFactor(), d) },
        },
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
