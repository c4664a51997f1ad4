import { ConfigError } from '../core/config-error.js';
import { InputError } from '../core/input-error.js';
import type { OnlineModel } from '../core/online-model.js';
import { normalQuantile } from '../special/normal-quantile.js';
import type { ArmModelSpec } from './arm-model-spec.js';
import { clippedDoublyRobust, type ClippedIntervalKind, type ClippedPolicyValueEstimate } from './clipped-doubly-robust.js';
import { createArmModels } from './create-arm-models.js';
import { DEFAULT_REWARD_MODEL } from './default-reward-model.js';
import { meanAndStandardError } from './mean-and-standard-error.js';
import type { ActionDistribution, BanditPolicy } from './bandit-policy.js';

/** One logged decision: the context, the arm the logging policy played, its propensity, the reward seen. */
export interface LoggedDecision {
  readonly context: Float64Array;
  readonly arm: number;
  /** P(logging policy plays `arm` | context) > 0. */
  readonly propensity: number;
  readonly reward: number;
}

/** A policy value estimate with its normal-approximation confidence interval. */
export interface PolicyValueEstimate {
  readonly value: number;
  readonly standardError: number;
  readonly lower: number;
  readonly upper: number;
}

/** What {@link evaluatePolicy} estimates. */
export interface OffPolicyEstimates {
  readonly ips: PolicyValueEstimate;
  readonly snips: PolicyValueEstimate;
  readonly dr: PolicyValueEstimate;
  /** Clipped DR whose interval holds the clipping bias (see {@link clippedDoublyRobust}): the interval to read when propensities are small. */
  readonly clippedDr: ClippedPolicyValueEstimate;
  /** The reward range the clipped DR interval assumed. */
  readonly rewardRange: readonly [number, number];
  /** Logged decisions used. */
  readonly n: number;
  /** (Σw)²/Σw²: how many on-policy samples the importance weights are worth. */
  readonly effectiveSampleSize: number;
  readonly level: number;
  /** What the caller should know before trusting the intervals: a small effective sample size, a reward range of one value. */
  readonly warnings: readonly string[];
}

/** Below this share of the logged decisions, the effective sample size is reported as small. */
const SMALL_EFFECTIVE_SAMPLE_SHARE = 0.1;

/** Options of {@link evaluatePolicy}. */
export interface OffPolicyOptions {
  /** Coverage of the intervals (default 0.95). */
  readonly level?: number;
  /** The doubly-robust reward model r̂(x, a), one model per arm of any registered regression or classification family (default vb-linear with the bandit hyperpriors). */
  readonly rewardModel?: ArmModelSpec;
  /**
   * Progressive evaluation: the candidate (a policy) learns each logged decision right after its
   * action probabilities for it are read, so the estimate is of the policy as it would have learnt
   * online from this traffic (default false: the candidate as it stands).
   */
  readonly learnFromLogs?: boolean;
  /** [r_min, r_max]: the range every reward lies in, which bounds the clipping bias of `clippedDr` (default: the smallest and largest logged reward). */
  readonly rewardRange?: readonly [number, number];
  /** The weight cap of `clippedDr` (default: chosen from 1, 2, 4, … for the narrowest interval). */
  readonly clip?: number;
  /** How `clippedDr`'s interval bounds each side: `normal` (default) or `empirical-bernstein` (no normality assumed, wider). */
  readonly clippedInterval?: ClippedIntervalKind;
}

/**
 * Off-policy estimates of the value V(π) = E_x Σ_a π(a | x)·E[r | x, a] of a candidate policy π from
 * decisions logged by another policy μ, with importance weights w_i = π(a_i | x_i)/p_i:
 * - IPS: V̂ = (1/n) Σ w_i r_i, unbiased when p_i = μ(a_i | x_i) > 0 wherever π plays;
 * - SNIPS: V̂ = Σ w_i r_i / Σ w_i (self-normalised: biased, O(1/n), far less variable; equals IPS when Σw = n);
 * - DR (Dudík, Langford & Li 2011): V̂ = (1/n) Σ [Σ_a π(a | x_i) r̂(x_i, a) + w_i (r_i − r̂(x_i, a_i))],
 *   unbiased if either the propensities or the reward model r̂ are right. r̂ is cross-fitted: the
 *   per-arm models scoring the even rows are fit on the odd rows and vice versa.
 * Intervals are normal approximations V̂ ± z·SE with the empirical variance: SE = sd(terms)/√n for
 * IPS and DR, and the delta-method √(Σ w_i²(r_i − V̂)²)/Σ w_i for SNIPS. They undercover when some
 * propensities are small (the large weights are rarely logged): `clippedDr` caps the weights and
 * bounds the cap's bias with the reward range, and `warnings` says when the Kish effective sample
 * size (Σw)²/Σw² is below 10% of n.
 * `candidate.actionProbabilities` is called once per logged decision (in log order).
 */
export function evaluatePolicy(logs: readonly LoggedDecision[], candidate: ActionDistribution | BanditPolicy, options: OffPolicyOptions = {}): OffPolicyEstimates {
  const learner = options.learnFromLogs === true ? candidate as Partial<BanditPolicy> : undefined;
  if (learner !== undefined && typeof learner.learn !== 'function') throw new ConfigError('learnFromLogs needs a candidate policy that can learn', { field: 'learnFromLogs' });
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new ConfigError('level must be in (0, 1)', { field: 'level', value: level });
  const n = logs.length;
  if (options.clip !== undefined && !(options.clip >= 1 && Number.isFinite(options.clip))) throw new ConfigError('clip must be a finite number ≥ 1', { field: 'clip', value: options.clip });
  if (options.rewardRange !== undefined && !(options.rewardRange[0] < options.rewardRange[1] && Number.isFinite(options.rewardRange[1] - options.rewardRange[0]))) throw new ConfigError('rewardRange must be [min, max] with finite min < max', { field: 'rewardRange', value: String(options.rewardRange) });
  if (options.clippedInterval !== undefined && options.clippedInterval !== 'normal' && options.clippedInterval !== 'empirical-bernstein') throw new ConfigError('clippedInterval must be normal or empirical-bernstein', { field: 'clippedInterval', value: String(options.clippedInterval) });
  if (n < 2) throw new InputError(`off-policy evaluation needs at least 2 logged decisions, got ${n}`, { field: 'logs', value: n });
  const k = candidate.arms;
  const dim = logs[0].context.length;
  for (const [i, log] of logs.entries()) {
    const row = i + 1;
    if (log.context.length !== dim) throw new InputError(`context has ${log.context.length} features, the first ${dim}`, { row, field: 'context' });
    if (!Number.isInteger(log.arm) || log.arm < 0 || log.arm >= k) throw new InputError(`arm must be an integer in [0, ${k})`, { row, field: 'arm', value: log.arm });
    if (!(log.propensity > 0 && log.propensity <= 1)) throw new InputError('propensity must be in (0, 1]', { row, field: 'propensity', value: log.propensity });
    if (!Number.isFinite(log.reward)) throw new InputError('reward must be finite', { row, field: 'reward', value: log.reward });
    if (options.rewardRange !== undefined && !(log.reward >= options.rewardRange[0] && log.reward <= options.rewardRange[1])) throw new InputError(`reward is outside rewardRange [${options.rewardRange.join(', ')}]`, { row, field: 'reward', value: log.reward });
  }
  const target = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    target.set(candidate.actionProbabilities(logs[i].context), i * k);
    learner?.learn!(logs[i], logs[i].reward);
  }
  const predicted = crossFittedRewards(logs, k, dim, options.rewardModel ?? DEFAULT_REWARD_MODEL);

  const weights = Float64Array.from(logs, (log, i) => target[i * k + log.arm] / log.propensity);
  const ipsTerms = Float64Array.from(logs, (log, i) => weights[i] * log.reward);
  const drTerms = Float64Array.from(logs, (log, i) => {
    let direct = 0;
    for (let a = 0; a < k; a++) direct += target[i * k + a] * predicted[i * k + a];
    return direct + weights[i] * (log.reward - predicted[i * k + log.arm]);
  });
  const z = normalQuantile((1 + level) / 2);
  const interval = (value: number, standardError: number): PolicyValueEstimate => ({ value, standardError, lower: value - z * standardError, upper: value + z * standardError });
  const sumW = weights.reduce((s, w) => s + w, 0);
  const sumW2 = weights.reduce((s, w) => s + w * w, 0);
  const snipsValue = sumW > 0 ? ipsTerms.reduce((s, t) => s + t, 0) / sumW : Number.NaN;
  const snipsSe = sumW > 0 ? Math.sqrt(logs.reduce((s, log, i) => s + weights[i] * weights[i] * (log.reward - snipsValue) ** 2, 0)) / sumW : Number.NaN;
  const rewards = Float64Array.from(logs, (log) => log.reward);
  const rewardRange = options.rewardRange ?? [rewards.reduce((m, r) => Math.min(m, r)), rewards.reduce((m, r) => Math.max(m, r))] as const;
  const clippedDr = clippedDoublyRobust({ weights, arms: Int32Array.from(logs, (log) => log.arm), rewards, target, predicted, k, range: rewardRange, level, interval: options.clippedInterval, clip: options.clip });
  const effectiveSampleSize = sumW2 > 0 ? (sumW * sumW) / sumW2 : 0;
  const warnings: string[] = [];
  if (effectiveSampleSize < SMALL_EFFECTIVE_SAMPLE_SHARE * n) warnings.push(`the importance weights are worth ${effectiveSampleSize.toFixed(1)} of ${n} decisions (effective sample size below ${SMALL_EFFECTIVE_SAMPLE_SHARE * 100}%): the IPS, SNIPS and DR normal intervals undercover, read the clipped DR interval`);
  if (rewardRange[0] === rewardRange[1]) warnings.push(`every logged reward is ${rewardRange[0]}: the clipped DR interval takes that as the reward range; pass the range the rewards can take`);
  return {
    ips: interval(...meanAndStandardError(ipsTerms)),
    snips: interval(snipsValue, snipsSe),
    dr: interval(...meanAndStandardError(drTerms)),
    clippedDr,
    rewardRange,
    n,
    effectiveSampleSize,
    level,
    warnings,
  };
}

/** r̂(x_i, a) for every row and arm (n×K), each row scored by per-arm models fit on the other half (odd/even rows). */
function crossFittedRewards(logs: readonly LoggedDecision[], k: number, dim: number, spec: ArmModelSpec): Float64Array {
  const predicted = new Float64Array(logs.length * k);
  for (let fold = 0; fold < 2; fold++) {
    const models = createArmModels(spec, k, dim);
    fit(models, logs, dim, (i) => i % 2 !== fold);
    for (let i = fold; i < logs.length; i += 2) for (let a = 0; a < k; a++) predicted[i * k + a] = models[a].predict(logs[i].context).mean;
  }
  return predicted;
}

/** Fits each arm's model on the chosen rows where it was played, in one batch. */
function fit(models: readonly OnlineModel[], logs: readonly LoggedDecision[], dim: number, chosen: (i: number) => boolean): void {
  for (const [a, model] of models.entries()) {
    const rows = logs.flatMap((log, i) => (chosen(i) && log.arm === a ? [log] : []));
    if (rows.length === 0) continue;
    const x = new Float64Array(rows.length * dim);
    rows.forEach((log, r) => x.set(log.context, r * dim));
    model.update({ x, y: Float64Array.from(rows, (log) => log.reward), n: rows.length, d: dim });
  }
}
