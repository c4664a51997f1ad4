import { closestName } from '../../src/core/closest-name.js';
import { ConfigError } from '../../src/core/config-error.js';
import type { FitAdapter } from '../fit-adapter.js';
import { pgLogitAdapter } from './pg-logit.js';
import { directLogitAdapter } from './direct-logit.js';
import { directAdapter } from './direct.js';
import { gpExactAdapter } from './gp-exact.js';
import { sgpDlmAdapter, sgpElboAdapter, sgpSqDlmAdapter } from './sparse-gp.js';
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
    viPerAdapter,
    viPerMeanFieldAdapter,
    viGaussHermiteAdapter,
    viMonteCarloAdapter,
    directAdapter,
    directLogitAdapter,
    sgpElboAdapter,
    sgpDlmAdapter,
    sgpSqDlmAdapter,
    gpExactAdapter,
  ].map((adapter): [string, FitAdapter] => [adapter.id, adapter]),
);

/** Model ids of earlier releases of `vbstream fit`: the registry id and the options they stand for. */
export const DEPRECATED_FIT_IDS: { readonly [id: string]: { readonly id: string; readonly options: { readonly [key: string]: string } } } = {
  'pg-cavi': { id: 'pg-logit', options: { mode: 'sda' } },
  'pg-svi': { id: 'pg-logit', options: { mode: 'svi' } },
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
