import type { ArmModelSpec } from './arm-model-spec.js';

/** The default reward model of the doubly-robust estimate: Bayesian linear regression per arm (with the bandit hyperpriors), fine for 0/1 and real rewards. */
export const DEFAULT_REWARD_MODEL: ArmModelSpec = { family: 'vb-linear' };
