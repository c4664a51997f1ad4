import type { OnlineModel } from '../core/online-model.js';
import { getFamily } from '../registry.js';
import type { ArmModelSpec } from './arm-model-spec.js';
import { BANDIT_FAMILY_OPTIONS } from './bandit-family-options.js';

/** `count` fresh models of `spec` (bandit defaults filled in) with `dim` features. */
export function createArmModels(spec: ArmModelSpec, count: number, dim: number): OnlineModel[] {
  const family = getFamily(spec.family);
  const options = spec.options ?? BANDIT_FAMILY_OPTIONS[spec.family];
  return Array.from({ length: count }, () => family.create(dim, options));
}
