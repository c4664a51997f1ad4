import { ConfigError } from './core/config-error.js';
import type { FamilyDescriptor } from './core/family-descriptor.js';
import { pgLogitFamily } from './models/pg-logit/index.js';
import { vbLinearArdFamily, vbLinearFamily } from './models/vb-linear/index.js';
import { directFamily, directLogitFamily } from './models/direct/index.js';
import { gpExactFamily } from './models/gp-exact/index.js';
import { sparseGpClassifierFamily, sparseGpCountFamily, sparseGpFamily } from './models/sparse-gp/index.js';
import { vbLogitArdFamily, vbLogitFamily, vbLogitOnlineFamily } from './models/vb-logit/index.js';
import { viGaussHermiteFamily, viMonteCarloFamily, viPerFamily, viPerMeanFieldFamily } from './models/vi-per/index.js';

/** Every model family, by id. Add a family here (one line) to make it reachable from the runtime and the CLI. */
export const families: ReadonlyMap<string, FamilyDescriptor> = new Map<string, FamilyDescriptor>(
  [
    vbLinearFamily,
    vbLinearArdFamily,
    vbLogitFamily,
    vbLogitArdFamily,
    vbLogitOnlineFamily,
    pgLogitFamily,
    viPerFamily,
    viPerMeanFieldFamily,
    viGaussHermiteFamily,
    viMonteCarloFamily,
    directFamily,
    directLogitFamily,
    sparseGpFamily,
    sparseGpClassifierFamily,
    sparseGpCountFamily,
    gpExactFamily,
  ].map((family): [string, FamilyDescriptor] => [family.id, family]),
);

/** The family with this id; an unknown id throws {@link ConfigError} listing the known ones. */
export function getFamily(id: string): FamilyDescriptor {
  const family = families.get(id);
  if (family === undefined) throw new ConfigError(`unknown model family "${id}"; known: ${[...families.keys()].join(', ')}`, { field: 'model', value: id });
  return family;
}
