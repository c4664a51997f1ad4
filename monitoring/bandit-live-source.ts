/**
 * What a bandit service hands the live view beyond its Prometheus counters: how often each arm was
 * chosen and the reward gathered so far. The view plots the arms' choice shares and the cumulative
 * reward over time; a bandit learner plugs one in through `LiveViewOptions.bandit`.
 */
export interface BanditLiveSource {
  /** Decisions that chose arm i, for every arm i (cumulative). */
  armChoices(): readonly number[];
  /** Sum of the rewards learned so far. */
  cumulativeReward(): number;
  /** Arm names for the legend (default `arm 0`, `arm 1`, …). */
  armNames?(): readonly string[];
}
