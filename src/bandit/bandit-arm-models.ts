import type { ArmModelSpec, RewardKind } from './arm-model-spec.js';

/** The arm model of each reward kind: a per-record logistic posterior for 0/1 rewards, Bayesian linear regression otherwise. */
export const BANDIT_ARM_MODELS: { readonly [kind in RewardKind]: ArmModelSpec } = {
  binary: { family: 'vb-logit-online' },
  real: { family: 'vb-linear' },
};
