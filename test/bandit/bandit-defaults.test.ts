import { describe, expect, it } from 'vitest';
import { LinUcbPolicy, simulateBandit, ThompsonPolicy, type BanditPolicy } from '../../src/bandit/index.js';

const T = 2000;
const SEEDS = [1, 2, 3, 4, 5];

/** Final pseudo-regret of each seed on the logistic environment (K = 5, d = 10) at a test-sized T. */
function regrets(make: (seed: number) => BanditPolicy, rewards: 'logistic' | 'gaussian' = 'logistic'): { mean: number; sd: number } {
  const finals = SEEDS.map((seed) => simulateBandit(make(seed), { arms: 5, dim: 10, seed, rewards }, T).cumulative[T - 1]);
  const mean = finals.reduce((s, r) => s + r, 0) / finals.length;
  return { mean, sd: Math.sqrt(finals.reduce((s, r) => s + (r - mean) ** 2, 0) / (finals.length - 1)) };
}

describe('bandit defaults explore well (issue 17: vb-linear arms on logistic rewards were erratic)', () => {
  const familyDefaults = regrets((seed) => new ThompsonPolicy({ arms: 5, dim: 10, seed, model: { family: 'vb-linear', options: {} }, exploration: 1, propensityDraws: 1 }));
  const banditDefaults = regrets((seed) => new ThompsonPolicy({ arms: 5, dim: 10, seed, model: { family: 'vb-linear' }, propensityDraws: 1 }));
  const binaryDefaults = regrets((seed) => new ThompsonPolicy({ arms: 5, dim: 10, seed, propensityDraws: 1 }));
  const linUcb = regrets((seed) => new LinUcbPolicy({ arms: 5, dim: 10, seed }));

  // Measured at T = 2,000 (score draws): family defaults 211 ± 40 (before vb-linear's incremental updates: 159 ± 44, sd 28%),
  // bandit defaults 85 ± 7; vb-logit-online arms 66 ± 6 against LinUCB's 71 ± 7.
  it('vb-linear arms with the family defaults explore too little; with the bandit defaults no seed is erratic (sd ≤ 25% of the mean) and the regret halves', () => {
    expect(banditDefaults.sd).toBeLessThanOrEqual(0.25 * banditDefaults.mean);
    expect(banditDefaults.mean).toBeLessThan(0.6 * familyDefaults.mean);
  });

  it('Thompson with the real-reward defaults (vb-linear arms, Student-t score draws) is steady on Gaussian rewards', () => {
    const real = regrets((seed) => new ThompsonPolicy({ arms: 5, dim: 10, seed, rewards: 'real', propensityDraws: 1 }), 'gaussian');
    expect(real.sd).toBeLessThanOrEqual(0.25 * real.mean);
  });

  it('Thompson with the binary-reward defaults is steady and at or below LinUCB (α = 1)', () => {
    expect(binaryDefaults.sd).toBeLessThanOrEqual(0.25 * binaryDefaults.mean);
    expect(binaryDefaults.mean).toBeLessThanOrEqual(linUcb.mean);
  });
});
