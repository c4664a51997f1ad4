import type { Batch } from '../../src/core/batch.js';
import { ConfigError } from '../../src/core/config-error.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { signedLabels } from '../../src/core/signed-labels.js';
import { validateBatch } from '../../src/core/validate-batch.js';
import { MinibatchSampler } from '../../src/models/pg-logit/minibatch-sampler.js';
import { pgLogitFamily, type PgLogitModel } from '../../src/models/pg-logit/family.js';
import type { PgLogitOptions } from '../../src/models/pg-logit/options.js';
import { Rng } from '../../src/rng/rng.js';
import type { FitAdapter, FitData, FitOutcome } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

const XI_SHOWN = 20;

function outcome(model: PgLogitModel, data: FitData, elbo: number, iterations: number, predictorOption: unknown): FitOutcome {
  const predictor = optionChecks.oneOf('predictor', predictorOption, 'exact', ['exact', 'probit'] as const);
  const d = data.d;
  const xi = Array.from({ length: Math.min(XI_SHOWN, data.n) }, (_, r) => model.localXi(data.x, r * d));
  return {
    posterior: {
      family: model.family, version: model.snapshot().version, dim: d,
      mean: Array.from(model.posteriorMean()), cov: jsonMatrix(model.covariance(), d),
      extras: { elbo, iterations, xi },
    },
    predict: (x, n) => ({ prob: Array.from({ length: n }, (_, r) => model.predict(x, r * d, predictor).prob) }),
    predictive: (x, offset) => model.predict(x, offset, predictor),
  };
}

/** CAVI (Algorithm 2) on all rows; extras `elbo`, `iterations` (sweeps), `xi` (first 20 rows). */
const cavi = {
  optionKeys: ['prior', 'tol', 'maxIter', 'predictor'],
  fit(data: FitData, options: { readonly [key: string]: unknown }): FitOutcome {
    const { predictor, ...modelOptions } = options;
    const model = pgLogitFamily.create(data.d, { ...(modelOptions as PgLogitOptions), mode: 'sda' });
    const stats = model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    return outcome(model, data, stats.objective ?? Number.NaN, stats.iterations ?? 0, predictor);
  },
};

/**
 * SVI (Algorithm 3) with N = the number of rows, `steps` (default 10,000) or `epochs` minibatches of
 * `batchSize` rows (default 1) drawn by `sampling` (`iid` default, `permutation`, `cyclic`) from
 * `seed`; extras `elbo` (of the final q on all rows), `iterations` (steps), `xi`.
 */
const svi = {
  optionKeys: ['prior', 'tau', 'kappa', 'batchSize', 'steps', 'epochs', 'sampling', 'seed', 'predictor'],
  fit(data: FitData, options: { readonly [key: string]: unknown }): FitOutcome {
    const { predictor, batchSize, steps, epochs, sampling, seed, ...modelOptions } = options;
    const all: Batch = { x: data.x, y: data.y, n: data.n, d: data.d };
    validateBatch(all, data.d);
    signedLabels(all, new Float64Array(data.n));
    const size = optionChecks.positiveInteger('batchSize', batchSize, 1);
    if (size > data.n) throw new ConfigError(`batch size exceeds the ${data.n} rows`, { field: 'batchSize', value: size });
    if (steps !== undefined && epochs !== undefined) throw new ConfigError('give steps or epochs, not both', { field: 'epochs', value: epochs });
    const scheme = optionChecks.oneOf('sampling', sampling, 'iid', ['iid', 'permutation', 'cyclic'] as const);
    const seedValue = optionChecks.finite('seed', seed, 1);
    if (!Number.isSafeInteger(seedValue)) throw new ConfigError('must be an integer', { field: 'seed', value: seedValue });
    const rng = Rng.fromSeed(seedValue);
    const model = pgLogitFamily.create(data.d, { ...(modelOptions as PgLogitOptions), mode: 'svi', effectiveSize: data.n });
    const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, size, scheme, rng);
    const total = epochs === undefined ? optionChecks.positiveInteger('steps', steps, 10_000) : optionChecks.positiveInteger('epochs', epochs, 1) * sampler.stepsPerEpoch;
    for (let t = 0; t < total; t++) model.update(sampler.next());
    return outcome(model, data, model.elbo(all), total, predictor);
  },
};

/**
 * `vbstream fit --model pg-logit`: `mode` `sda` (default) is CAVI on all rows (`prior`, `tol`,
 * `maxIter`), `svi` is SVI over minibatches of the rows (`prior`, `tau`, `kappa`, `batchSize`,
 * `steps` | `epochs`, `sampling`, `seed`); `predictor` `exact` (default) or `probit`.
 */
export const pgLogitAdapter: FitAdapter = {
  id: 'pg-logit',
  task: 'classification',
  optionKeys: ['mode', ...new Set([...cavi.optionKeys, ...svi.optionKeys])],
  fit(data, options) {
    const { mode, ...rest } = options;
    const chosen = optionChecks.oneOf('mode', mode, 'sda', ['sda', 'svi'] as const);
    const path = chosen === 'sda' ? cavi : svi;
    for (const key of Object.keys(rest)) {
      if (!path.optionKeys.includes(key)) throw new ConfigError(`option ${key} applies to pg-logit mode ${chosen === 'sda' ? 'svi' : 'sda'}, not ${chosen}`, { field: key });
    }
    return path.fit(data, rest);
  },
};
