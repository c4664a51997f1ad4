import { createArmModel, type ArmModelKind } from './arm-model.js';
import type { BanditEnvironmentOptions } from './bandit-environment.js';
import { calibrationBins, type CalibrationBin } from './calibration-bins.js';
import { EpsilonGreedyPolicy } from './epsilon-greedy-policy.js';
import { LinUcbPolicy } from './lin-ucb-policy.js';
import { simulate, type RegretCurve } from './simulate.js';
import { ThompsonPolicy } from './thompson-policy.js';

/** Settings of {@link runBanditExperiment}; {@link DEFAULT_BANDIT_SETTINGS} are the README's figures. */
export interface BanditSettings {
  readonly arms: number;
  readonly dim: number;
  readonly steps: number;
  readonly seed: number;
  readonly model: ArmModelKind;
  readonly epsilon: number;
  /** LinUCB's exploration weight α. */
  readonly alpha: number;
  /** Drift of the drifting scenario: every `every` steps each true weight moves by N(0, scale²). */
  readonly drift: { readonly every: number; readonly scale: number };
  /** Forgetting factor γ per step for "forgetting on" in the drifting scenario. */
  readonly forget: number;
  readonly propensityDraws: number;
}

export const DEFAULT_BANDIT_SETTINGS: BanditSettings = {
  arms: 4, dim: 5, steps: 2000, seed: 1, model: 'vb-logit-online', epsilon: 0.1, alpha: 1, drift: { every: 500, scale: 1 }, forget: 0.995, propensityDraws: 100,
};

/** What the experiment measured. */
export interface BanditResults {
  /** Stationary rewards: Thompson, ε-greedy, LinUCB. */
  readonly stationary: RegretCurve[];
  /** Drifting rewards: Thompson with forgetting off and on, ε-greedy, LinUCB. */
  readonly drift: RegretCurve[];
  /** Thompson's posterior predictive for the arm it played vs the reward that followed (stationary run). */
  readonly calibration: CalibrationBin[];
}

/**
 * Runs Thompson sampling (per-arm `model` posteriors), ε-greedy over the same posteriors and LinUCB
 * against the seeded logistic bandit, stationary and with drift (forgetting off vs on).
 */
export function runBanditExperiment(settings: BanditSettings = DEFAULT_BANDIT_SETTINGS): BanditResults {
  const { arms, dim, steps, seed, model } = settings;
  const models = (): ReturnType<typeof createArmModel>[] => Array.from({ length: arms }, () => createArmModel(model, dim));
  const thompson = (forget = 1): ThompsonPolicy => new ThompsonPolicy(models(), { seed: seed + 1, propensityDraws: settings.propensityDraws, forget });
  const baselines = () => [new EpsilonGreedyPolicy(models(), settings.epsilon, seed + 2), new LinUcbPolicy(arms, dim, settings.alpha)];
  const stationaryWorld: BanditEnvironmentOptions = { arms, dim, seed };
  const driftWorld: BanditEnvironmentOptions = { ...stationaryWorld, drift: settings.drift };
  const predicted: number[] = [];
  const outcomes: number[] = [];
  const calibrated = thompson();
  const stationary = [
    simulate(calibrated, stationaryWorld, steps, (x, arm, reward) => {
      predicted.push(calibrated.probability(x, arm));
      outcomes.push(reward);
    }),
    ...baselines().map((policy) => simulate(policy, stationaryWorld, steps)),
  ];
  const drift = [thompson(), thompson(settings.forget), ...baselines()].map((policy) => simulate(policy, driftWorld, steps));
  return { stationary, drift, calibration: calibrationBins(predicted, outcomes) };
}
