import { ConfigError } from '../../src/core/config-error.js';
import type { FitAdapter } from '../fit-adapter.js';
import { pgCaviAdapter, pgSviAdapter } from './pg-logit.js';
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
    pgCaviAdapter,
    pgSviAdapter,
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

/** The adapter for `--model id`; an unknown id throws {@link ConfigError} listing the known ones. */
export function getFitAdapter(id: string): FitAdapter {
  const adapter = fitAdapters.get(id);
  if (adapter === undefined) throw new ConfigError(`unknown model "${id}"; known: ${[...fitAdapters.keys()].join(', ')}`, { field: '--model', value: id });
  return adapter;
}
