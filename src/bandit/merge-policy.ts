import { ConfigError } from '../core/config-error.js';
import type { OnlineModel } from '../core/online-model.js';
import type { BanditPolicy } from './bandit-policy.js';
import { EpsilonGreedyPolicy } from './epsilon-greedy-policy.js';
import { ThompsonPolicy } from './thompson-policy.js';

/** The posteriors of a policy that keeps them as models (one per arm, or the one shared model), or a ConfigError saying why it cannot merge. */
function modelsOf(policy: BanditPolicy): readonly OnlineModel[] {
  if (policy instanceof ThompsonPolicy || policy instanceof EpsilonGreedyPolicy) {
    const lacking = policy.models.find((model) => typeof model.merge !== 'function');
    if (lacking !== undefined) throw new ConfigError(`policy ${policy.name} cannot merge: family ${lacking.family} has no merge (it is not additive); learn it on one partition`, { field: 'model', value: lacking.family });
    return policy.models;
  }
  throw new ConfigError(`policy ${policy.name} cannot merge: it keeps no per-arm models whose family merges (LinUCB keeps A⁻¹, not the additive A); learn it on one partition`, { field: 'kind', value: policy.name });
}

/**
 * Folds `other` — the same policy fed a disjoint stream of rewards — into `into`, model by model
 * with each family's `merge` (streaming distributed Bayes, Broderick et al. 2013: into a policy with
 * no rewards, each merge adds a partition's evidence). Thompson and ε-greedy policies over families
 * with `merge` (vb-linear, vb-logit, vb-logit-online, pg-logit, direct) merge; LinUCB and families
 * without `merge` throw a {@link ConfigError}, and so do two policies of other kinds, arms,
 * dimensions or layouts; each family refuses a model of another prior as it merges.
 */
export function mergePolicy(into: BanditPolicy, other: BanditPolicy): void {
  const target = modelsOf(into);
  const source = modelsOf(other);
  if (into.constructor !== other.constructor || into.arms !== other.arms || into.dim !== other.dim || target.length !== source.length) {
    throw new ConfigError(`cannot merge policy ${other.name} (${other.arms} arms, ${other.dim} features) into ${into.name} (${into.arms} arms, ${into.dim} features)`, { field: 'policy' });
  }
  if (into instanceof ThompsonPolicy && other instanceof ThompsonPolicy && (into.features.layout !== other.features.layout || into.features.armFeatures.some((z, i) => z !== other.features.armFeatures[i]))) {
    throw new ConfigError(`cannot merge Thompson policies of layouts ${other.features.layout} and ${into.features.layout} (or other arm features)`, { field: 'layout' });
  }
  for (let i = 0; i < target.length; i++) target[i].merge!(source[i]);
}
