import { normalQuantile } from '../special/normal-quantile.js';
import { meanAndStandardError } from './mean-and-standard-error.js';

/** How each side of the clipped DR interval is bounded: the normal approximation, or Maurer & Pontil's empirical-Bernstein bound (no normality: holds for any n). */
export type ClippedIntervalKind = 'normal' | 'empirical-bernstein';

/** A clipped doubly-robust estimate whose interval holds the clipping bias. */
export interface ClippedPolicyValueEstimate {
  readonly value: number;
  /** Standard error of the clipped DR terms (the spread of `value`, not of the bias). */
  readonly standardError: number;
  readonly lower: number;
  readonly upper: number;
  /** The weight cap M: every importance weight above it counts as M. */
  readonly clip: number;
  /** 1 − mean(min(w, M)) (at least 0): the estimated share of the candidate's probability the cap leaves out, E[w − min(w, M)]. */
  readonly clippedMass: number;
}

/** What {@link clippedDoublyRobust} reads, row by row (n rows, K arms). */
export interface ClippedDoublyRobustInput {
  /** w_i = π(a_i | x_i)/p_i. */
  readonly weights: Float64Array;
  readonly arms: Int32Array;
  readonly rewards: Float64Array;
  /** π(a | x_i), n×K. */
  readonly target: Float64Array;
  /** r̂(x_i, a), n×K. */
  readonly predicted: Float64Array;
  readonly k: number;
  /** [r_min, r_max]: every reward, logged or not, lies in it. */
  readonly range: readonly [number, number];
  /** Coverage of the interval: each side fails with probability (1 − level)/2. */
  readonly level: number;
  /** Default `normal`. */
  readonly interval?: ClippedIntervalKind;
  /** The weight cap; undefined: the one of 1, 2, 4, … (and the largest weight) whose interval is narrowest. */
  readonly clip?: number;
}

/**
 * Clipped DR with the clipping bias inside its interval. With w̄ = min(w, M), the value splits as
 * V = E[Σ_a π(a | x) r̂(x, a) + w̄ (r − r̂(x, a))] + E[(w − w̄)(r − r̂(x, a))]; the point estimate is the
 * sample mean of the first part. The second part (the bias of the cap) has no estimate that is not
 * heavy-tailed, so it is bounded with the reward range: because E[w g(x, a)] = E_x Σ_a π(a | x) g(x, a)
 * for every g, r ∈ [r_min, r_max] gives
 *   E[r_min + w̄ (r − r_min)] ≤ V ≤ E[r_max − w̄ (r_max − r)],
 * the reward model cancelling from both bounds: each bound is the mean of a variable within M·(r_max − r_min)
 * of the range, so its normal interval is sound where the unclipped weights' is not. The interval is
 * [mean(L) − z·se(L), mean(U) + z·se(U)]: its width is the clipped mass times the reward range plus the
 * two standard errors, and the automatic cap is the one that makes it narrowest. With
 * `empirical-bernstein` each side is instead Maurer & Pontil's (2009, Thm 4) bound for a mean of
 * variables in a range of R = M·(r_max − r_min): √(2·s²·ln(2/δ)/n) + 7R·ln(2/δ)/(3(n − 1)) with
 * δ = (1 − level)/2 — it holds without normality, for any n, and is wider.
 */
export function clippedDoublyRobust(input: ClippedDoublyRobustInput): ClippedPolicyValueEstimate {
  const largest = input.weights.reduce((m, w) => Math.max(m, w), 0);
  const caps = [];
  if (input.clip !== undefined) caps.push(input.clip);
  else {
    for (let cap = 1; cap < largest; cap *= 2) caps.push(cap);
    caps.push(Math.max(largest, 1));
  }
  let best: ClippedPolicyValueEstimate | undefined;
  for (const cap of caps) {
    const estimate = clippedAt(input, cap);
    if (best === undefined || estimate.upper - estimate.lower < best.upper - best.lower) best = estimate;
  }
  return best!;
}

/** The clipped DR estimate and interval at one cap. */
function clippedAt({ weights, arms, rewards, target, predicted, k, range: [low, high], level, interval = 'normal' }: ClippedDoublyRobustInput, cap: number): ClippedPolicyValueEstimate {
  const n = weights.length;
  const terms = new Float64Array(n);
  const lows = new Float64Array(n);
  const highs = new Float64Array(n);
  let clippedSum = 0;
  for (let i = 0; i < n; i++) {
    const w = Math.min(weights[i], cap);
    let direct = 0;
    for (let a = 0; a < k; a++) direct += target[i * k + a] * predicted[i * k + a];
    terms[i] = direct + w * (rewards[i] - predicted[i * k + arms[i]]);
    lows[i] = low + w * (rewards[i] - low);
    highs[i] = high - w * (high - rewards[i]);
    clippedSum += w;
  }
  const [value, standardError] = meanAndStandardError(terms);
  const [lowMean, lowError] = meanAndStandardError(lows);
  const [highMean, highError] = meanAndStandardError(highs);
  const delta = (1 - level) / 2;
  const margin = interval === 'normal'
    ? (error: number): number => normalQuantile(1 - delta) * error
    : (error: number): number => Math.sqrt(2 * error * error * Math.log(2 / delta)) + (7 * cap * (high - low) * Math.log(2 / delta)) / (3 * (n - 1));
  return { value, standardError, lower: lowMean - margin(lowError), upper: highMean + margin(highError), clip: cap, clippedMass: Math.max(0, 1 - clippedSum / n) };
}
