import { describe, expect, it } from 'vitest';
import { offPolicyWorld } from '../../bench/off-policy-world.js';
import { evaluatePolicy, type ActionDistribution } from '../../src/bandit/index.js';
import { InputError } from '../../src/core/input-error.js';

const K = 3;

/** The logging policy μ: 70% softmax of fixed scores βₐᵀx, 30% uniform (every propensity ≥ 0.1), known exactly. */
const beta = [Float64Array.of(0.5, 1, 0), Float64Array.of(0, -0.5, 1), Float64Array.of(-0.5, 0, -1)];
function logging(x: Float64Array): Float64Array {
  const scores = beta.map((b) => b.reduce((s, v, j) => s + v * x[j], 0));
  const top = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - top));
  const total = e.reduce((s, v) => s + v, 0);
  return Float64Array.from(e, (v) => (0.7 * v) / total + 0.3 / K);
}

/** The candidate π (80% the truly best arm, 20% uniform), its true value and logs of μ, in the world of bench/off-policy-world.ts. */
const { candidate, trueValue, logs } = offPolicyWorld(logging);

describe('off-policy evaluation (IPS, SNIPS, DR) against a known logging policy', () => {
  const SEEDS = 40;
  const runs = Array.from({ length: SEEDS }, (_, s) => evaluatePolicy(logs(s + 1, 1000), candidate));

  it('the true value lies inside the 95% interval on ≥ 90% of 40 seeds, for every estimator', () => {
    for (const which of ['ips', 'snips', 'dr'] as const) {
      const covered = runs.filter((r) => r[which].lower <= trueValue && trueValue <= r[which].upper).length;
      expect(covered, which).toBeGreaterThanOrEqual(0.9 * SEEDS);
    }
  });

  it('IPS is unbiased: its mean over the seeds is within 3 standard errors of the true value', () => {
    const values = runs.map((r) => r.ips.value);
    const mean = values.reduce((s, v) => s + v, 0) / SEEDS;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (SEEDS - 1));
    expect(Math.abs(mean - trueValue)).toBeLessThan((3 * sd) / Math.sqrt(SEEDS));
  });

  it('the reward model makes DR tighter than IPS', () => {
    const mean = (f: (r: (typeof runs)[number]) => number): number => runs.reduce((s, r) => s + f(r), 0) / SEEDS;
    expect(mean((r) => r.dr.standardError)).toBeLessThan(mean((r) => r.ips.standardError));
    expect(runs[0].effectiveSampleSize).toBeGreaterThan(50);
    expect(runs[0].effectiveSampleSize).toBeLessThan(1000);
  });

  it('SNIPS equals IPS when every propensity and weight is 1', () => {
    const deterministic: ActionDistribution = { arms: K, actionProbabilities: (x) => Float64Array.from({ length: K }, (_, a) => (a === (x[1] > 0 ? 1 : 0) ? 1 : 0)) };
    const logged = logs(3, 300).map((l) => ({ ...l, arm: l.context[1] > 0 ? 1 : 0, propensity: 1 }));
    const r = evaluatePolicy(logged, deterministic);
    expect(r.snips.value).toBeCloseTo(r.ips.value, 14);
    expect(r.ips.value).toBeCloseTo(logged.reduce((s, l) => s + l.reward, 0) / 300, 14);
    expect(r.effectiveSampleSize).toBeCloseTo(300, 9);
  });

  it('refuses logs it cannot weigh', () => {
    const good = logs(1, 10);
    expect(() => evaluatePolicy(good.slice(0, 1), candidate)).toThrow(InputError);
    expect(() => evaluatePolicy([...good, { ...good[0], propensity: 0 }], candidate)).toThrow(/propensity must be in \(0, 1\] \(row 11/);
    expect(() => evaluatePolicy([...good, { ...good[0], arm: 3 }], candidate)).toThrow(/arm must be an integer/);
    expect(() => evaluatePolicy(good, candidate, { level: 1 })).toThrow(/level/);
    expect(() => evaluatePolicy(good, candidate, { learnFromLogs: true })).toThrow(/a candidate policy that can learn/);
  });
});
