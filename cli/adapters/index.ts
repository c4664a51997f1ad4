import { ConfigError } from '../../src/core/config-error.js';
import type { FitAdapter } from '../fit-adapter.js';
import { gpExactAdapter } from './gp-exact.js';
import { sgpDlmAdapter, sgpElboAdapter, sgpSqDlmAdapter } from './sparse-gp.js';
import { vbLinearAdapter, vbLinearArdAdapter } from './vb-linear.js';
import { vbLogitAdapter, vbLogitArdAdapter, vbLogitOnlineAdapter } from './vb-logit.js';

/** The model ids `vbstream fit` knows. Add an adapter here (one line) to expose a family. */
export const fitAdapters: ReadonlyMap<string, FitAdapter> = new Map(
  [
    vbLinearAdapter,
    vbLinearArdAdapter,
    vbLogitAdapter,
    vbLogitArdAdapter,
    vbLogitOnlineAdapter,
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
