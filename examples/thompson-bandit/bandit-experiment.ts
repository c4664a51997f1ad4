import { EpsilonGreedyPolicy, LinUcbPolicy, simulateBandit, ThompsonPolicy, type RegretCurve, type SimulatedBanditOptions } from 'vbstream/bandit';
import { armModelSpec, type ArmModelKind } from './arm-model.js';
import { calibrationBins, type CalibrationBin } from './calibration-bins.js';

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
  /** Steps after which the drifting world's weights moved (the next step sees the new weights). */
  readonly driftSteps: number[];
  /** Thompson's posterior predictive for the arm it played vs the reward that followed (stationary run). */
  readonly calibration: CalibrationBin[];
}

/**
 * Runs Thompson sampling (per-arm `model` posteriors), ε-greedy over the same posteriors and LinUCB
 * against the seeded logistic bandit of vbstream/bandit, stationary and with drift (forgetting off vs on).
 */
export function runBanditExperiment(settings: BanditSettings = DEFAULT_BANDIT_SETTINGS): BanditResults {
  const { arms, dim, steps, seed } = settings;
  const model = armModelSpec(settings.model);
  const thompson = (forget = 1): ThompsonPolicy => new ThompsonPolicy({ arms, dim, model, seed: seed + 1, propensityDraws: settings.propensityDraws, forget });
  const baselines = () => [new EpsilonGreedyPolicy({ arms, dim, model, epsilon: settings.epsilon, seed: seed + 2 }), new LinUcbPolicy({ arms, dim, alpha: settings.alpha, seed: seed + 3 })];
  const stationaryWorld: SimulatedBanditOptions = { arms, dim, seed };
  const driftWorld: SimulatedBanditOptions = { ...stationaryWorld, drift: settings.drift };
  const predicted: number[] = [];
  const outcomes: number[] = [];
  const calibrated = thompson();
  const stationary = [
    simulateBandit(calibrated, stationaryWorld, steps, (played, reward) => {
      predicted.push(calibrated.models[played.arm].predict(played.context).mean);
      outcomes.push(reward);
    }),
    ...baselines().map((policy) => simulateBandit(policy, stationaryWorld, steps)),
  ];
  const drift = [thompson(), thompson(settings.forget), ...baselines()].map((policy) => simulateBandit(policy, driftWorld, steps));
  const driftSteps = Array.from({ length: Math.ceil(steps / settings.drift.every) - 1 }, (_, k) => (k + 1) * settings.drift.every);
  return { stationary, drift, driftSteps, calibration: calibrationBins(predicted, outcomes) };
}
