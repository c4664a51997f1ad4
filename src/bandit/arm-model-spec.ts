import type { OnlineModel } from '../core/online-model.js';
import { getFamily } from '../registry.js';

/** A registered family id and its options, as a bandit creates its arm models. */
export interface ArmModelSpec {
  readonly family: string;
  /** The family's options; absent: {@link BANDIT_FAMILY_OPTIONS} for the family, else its own defaults. */
  readonly options?: unknown;
}

/** The kind of rewards a bandit sees: 0/1 (clicks, conversions) or real numbers. */
export type RewardKind = 'binary' | 'real';

/**
 * The options a family gets in a bandit when none are given. The families' own defaults are made
 * for fitting data, not for exploring: vb-linear's vague hyperpriors Gam(1e-2, 1e-4) on the noise and
 * weight precisions let an arm whose first few rewards agree (all 0) fit a near-zero noise variance,
 * so its posterior collapses and the arm is never tried again (regret 796 ± 435 on logistic rewards,
 * issue 17); with all four at 1 (noise variance ~1 a priori, weights ~N(0, 1)) every arm stays
 * uncertain until its data say otherwise. vb-logit-online's default prior precision d shrinks the
 * weights to sd 1/√d; precision 1 (weights ~N(0, 1)) explores as the reward scale asks.
 */
export const BANDIT_FAMILY_OPTIONS: { readonly [family: string]: unknown } = {
  'vb-linear': { prior: { a0: 1, b0: 1, c0: 1, d0: 1 } },
  'vb-linear-ard': { prior: { a0: 1, b0: 1, c0: 1, d0: 1 } },
  'vb-logit-online': { priorPrecision: 1 },
};

/** The arm model of each reward kind: a per-record logistic posterior for 0/1 rewards, Bayesian linear regression otherwise. */
export const BANDIT_ARM_MODELS: { readonly [kind in RewardKind]: ArmModelSpec } = {
  binary: { family: 'vb-logit-online' },
  real: { family: 'vb-linear' },
};

/** `count` fresh models of `spec` (bandit defaults filled in) with `dim` features. */
export function createArmModels(spec: ArmModelSpec, count: number, dim: number): OnlineModel[] {
  const family = getFamily(spec.family);
  const options = spec.options ?? BANDIT_FAMILY_OPTIONS[spec.family];
  return Array.from({ length: count }, () => family.create(dim, options));
}
