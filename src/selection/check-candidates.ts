import { ConfigError } from '../core/config-error.js';
import { families, getFamily } from '../registry.js';
import type { CheckedCandidate } from './checked-candidate.js';
import type { FeatureTransform } from './feature-transform.js';
import { featureTransformWidth } from './feature-transform-width.js';
import type { ModelCandidate } from './model-candidate.js';

const IDENTITY: FeatureTransform = { type: 'identity' };

function describe(features: FeatureTransform): string {
  switch (features.type) {
    case 'identity': return '';
    case 'columns': return ` columns(${features.columns.join(',')})`;
    case 'polynomial': return ` polynomial(${features.degree})`;
    case 'rbf': return ` rbf(${features.centres.length}, ℓ=${features.lengthscale})`;
  }
}

/**
 * Checks the candidates of a model selection on records of d columns before anything is fitted: at
 * least one; each of a known family whose objective is a lower bound on the log evidence (others,
 * e.g. ADF or the DLM losses, cannot be ranked by it); a valid transform; options the family accepts
 * (a model is created); unique names. Anything wrong throws `ConfigError` naming the candidate.
 */
export function checkCandidates(candidates: readonly ModelCandidate[], d: number): CheckedCandidate[] {
  if (!Array.isArray(candidates) || candidates.length === 0) throw new ConfigError('model selection needs at least one candidate', { field: 'candidates' });
  const names = new Set<string>();
  return candidates.map((candidate, i) => {
    const field = `candidates[${i}]`;
    if (typeof candidate !== 'object' || candidate === null) throw new ConfigError('must be an object with a family', { field, value: candidate });
    try {
      const family = getFamily(candidate.family);
      if (!family.evidenceBound) {
        const bounded = [...families.values()].filter((f) => f.evidenceBound).map((f) => f.id);
        throw new ConfigError(`family ${family.id} has no variational lower bound on the evidence to rank by; families that have: ${bounded.join(', ')}`, { field: 'family', value: family.id });
      }
      const features = candidate.features ?? IDENTITY;
      const width = featureTransformWidth(features, d);
      const options = candidate.options ?? {};
      family.create(width, options);
      const name = candidate.name ?? `${family.id}${describe(features)}`;
      if (typeof name !== 'string' || name === '') throw new ConfigError('must be a non-empty string', { field: 'name', value: name });
      if (names.has(name)) throw new ConfigError(`two candidates are named "${name}"`, { field: 'name', value: name });
      names.add(name);
      return { name, family: family.id, options, features, width };
    } catch (error) {
      if (error instanceof ConfigError && !error.location.field?.startsWith('candidates')) {
        throw new ConfigError(error.reason, { ...error.location, field: `${field}.${error.location.field ?? 'options'}` }, { cause: error });
      }
      throw error;
    }
  });
}
