import { ConfigError } from './core/config-error.js';
import type { Family, RuntimeFamily } from './core/family.js';
import { closestName } from './core/closest-name.js';
import type { InputLimits } from './core/input-limits.js';
import { adfLogitFamily, adfPoissonFamily, adfProbitFamily } from './models/adf/index.js';
import { pgLogitFamily } from './models/pg-logit/index.js';
import { vbLinearArdFamily, vbLinearFamily } from './models/vb-linear/index.js';
import { directBnnFamily, directFamily, directLogitFamily } from './models/direct/index.js';
import { gpExactFamily } from './models/gp-exact/index.js';
import { sparseGpClassifierFamily, sparseGpCountFamily, sparseGpFamily } from './models/sparse-gp/index.js';
import { vbLogitArdFamily, vbLogitFamily, vbLogitOnlineFamily } from './models/vb-logit/index.js';
import { viGaussHermiteFamily, viMonteCarloFamily, viPerFamily, viPerMeanFieldFamily } from './models/vi-per/index.js';

/** Every model family by id, with its own option and model types: `familyById['pg-logit'].create(d, { mode: 'svi', … })` is checked by the compiler. */
export const familyById = {
  'vb-linear': vbLinearFamily,
  'vb-linear-ard': vbLinearArdFamily,
  'vb-logit': vbLogitFamily,
  'vb-logit-ard': vbLogitArdFamily,
  'vb-logit-online': vbLogitOnlineFamily,
  'pg-logit': pgLogitFamily,
  'adf-logit': adfLogitFamily,
  'adf-probit': adfProbitFamily,
  'adf-poisson': adfPoissonFamily,
  'vi-per': viPerFamily,
  'vi-per-mf': viPerMeanFieldFamily,
  'vi-gh': viGaussHermiteFamily,
  'vi-mc': viMonteCarloFamily,
  direct: directFamily,
  'direct-logit': directLogitFamily,
  'direct-bnn': directBnnFamily,
  'sparse-gp': sparseGpFamily,
  'sparse-gp-classifier': sparseGpClassifierFamily,
  'sparse-gp-count': sparseGpCountFamily,
  'gp-exact': gpExactFamily,
} as const;

/** A registry id. */
export type FamilyId = keyof typeof familyById;

/** The options type of a family id (what `getFamily(id).create(dim, options)` accepts). */
export type FamilyOptions<Id extends FamilyId> = (typeof familyById)[Id] extends Family<infer Options, infer _Model> ? Options : never;

/** Every model family, by id, in registry order. Add a family to {@link familyById} (one line) to make it reachable from the runtime and the CLI. */
export const families: ReadonlyMap<string, RuntimeFamily> = new Map<string, RuntimeFamily>(Object.entries(familyById) as [string, RuntimeFamily][]);

/** The family with this id: typed for a literal id; an unknown id throws {@link ConfigError} naming the closest known one. */
export function getFamily<Id extends FamilyId>(id: Id): (typeof familyById)[Id];
export function getFamily(id: string): RuntimeFamily;
export function getFamily(id: string): RuntimeFamily {
  const family = families.get(id);
  if (family === undefined) {
    const near = closestName(id, [...families.keys()]);
    throw new ConfigError(`unknown model family "${id}"; ${near === undefined ? '' : `did you mean "${near}"? `}known: ${[...families.keys()].join(', ')}`, { field: 'model', value: id });
  }
  return family;
}

/**
 * A model of family `id` with `dim` features: `createModel('vb-logit-online', 10, { priorPrecision: 1 })`;
 * option names and types are checked by the compiler and again at run time. `limits` bound the
 * magnitude of its inputs (`{ maxAbsInput: 1e15 }`; default 1e12).
 */
export function createModel<Id extends FamilyId>(id: Id, dim: number, options?: FamilyOptions<Id>, limits?: InputLimits): ReturnType<(typeof familyById)[Id]['create']> {
  return getFamily(id).create(dim, options as never, limits) as ReturnType<(typeof familyById)[Id]['create']>;
}
