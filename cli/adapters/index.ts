import { closestName } from '../../src/core/closest-name.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { FitAdapter } from '../fit-adapter.js';
import { adfLogitAdapter, adfPoissonAdapter, adfProbitAdapter } from './adf.js';
import { pgLogitAdapter } from './pg-logit.js';
import { directBnnAdapter } from './direct-bnn.js';
import { directLogitAdapter } from './direct-logit.js';
import { directAdapter } from './direct.js';
import { gpExactAdapter } from './gp-exact.js';
import { sparseGpAdapter, sparseGpClassifierAdapter, sparseGpCountAdapter } from './sparse-gp.js';
import { vbLinearAdapter, vbLinearArdAdapter } from './vb-linear.js';
import { vbLogitAdapter, vbLogitArdAdapter, vbLogitOnlineAdapter } from './vb-logit.js';
import { viGaussHermiteAdapter, viMonteCarloAdapter, viPerAdapter, viPerMeanFieldAdapter } from './vi-per.js';

/** The model ids `vbstream fit` knows. Add an adapter here (one line) to expose a family. */
export const fitAdapters: ReadonlyMap<string, FitAdapter> = new Map(
  [
    vbLinearAdapter,
    vbLinearArdAdapter,
    vbLogitAdapter,
    vbLogitArdAdapter,
    vbLogitOnlineAdapter,
    pgLogitAdapter,
    adfLogitAdapter,
    adfProbitAdapter,
    adfPoissonAdapter,
    viPerAdapter,
    viPerMeanFieldAdapter,
    viGaussHermiteAdapter,
    viMonteCarloAdapter,
    directAdapter,
    directLogitAdapter,
    directBnnAdapter,
    sparseGpAdapter,
    sparseGpClassifierAdapter,
    sparseGpCountAdapter,
    gpExactAdapter,
  ].map((adapter): [string, FitAdapter] => [adapter.id, adapter]),
);

const SPARSE_GP_FAMILY_OF: { readonly [likelihood: string]: string } = { probit: 'sparse-gp-classifier', 'bernoulli-probit': 'sparse-gp-classifier', logit: 'sparse-gp-classifier', 'bernoulli-logit': 'sparse-gp-classifier', poisson: 'sparse-gp-count' };
const sparseGpId = (options: { readonly [key: string]: unknown }): string => SPARSE_GP_FAMILY_OF[String(options.likelihood)] ?? 'sparse-gp';

/** Model ids of earlier releases of `vbstream fit`: the registry id (which may follow the options) and the options they stand for. */
export const DEPRECATED_FIT_IDS: { readonly [id: string]: { readonly id: (options: { readonly [key: string]: unknown }) => string; readonly options: { readonly [key: string]: string } } } = {
  'pg-cavi': { id: () => 'pg-logit', options: { mode: 'sda' } },
  'pg-svi': { id: () => 'pg-logit', options: { mode: 'svi' } },
  'sgp-elbo': { id: sparseGpId, options: { objective: 'elbo' } },
  'sgp-dlm': { id: sparseGpId, options: { objective: 'dlm' } },
  'sgp-sq-dlm': { id: sparseGpId, options: { objective: 'sq-dlm' } },
};

/** The adapter for `--model id`; an unknown id throws {@link ConfigError} naming the closest known one. */
export function getFitAdapter(id: string): FitAdapter {
  const adapter = fitAdapters.get(id);
  if (adapter === undefined) {
    const near = closestName(id, [...fitAdapters.keys()]);
    throw new ConfigError(`unknown model "${id}"; ${near === undefined ? '' : `did you mean "${near}"? `}known: ${[...fitAdapters.keys()].join(', ')}`, { field: '--model', value: id });
  }
  return adapter;
}
