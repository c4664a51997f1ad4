import { describe, expect, it } from 'vitest';
import { offPolicyWorld, type LoggingKind } from '../../bench/off-policy-world.js';
import { evaluatePolicy, type OffPolicyEstimates } from '../../src/bandit/index.js';
import { InputError } from '../../src/core/input-error.js';

const REPLICATIONS = 200;
const N = 2000;

/** Every replication's estimates (seeds 1…200, n = 2,000, rewards in [0, 1]), the smallest propensity of each, and the true value. */
function replicate(kind: LoggingKind): { runs: OffPolicyEstimates[]; smallest: number[]; trueValue: number } {
  const world = offPolicyWorld(kind);
  const smallest: number[] = [];
  const runs = Array.from({ length: REPLICATIONS }, (_, s) => {
    const logs = world.logs(s + 1, N);
    smallest.push(logs.reduce((m, l) => Math.min(m, l.propensity), 1));
    return evaluatePolicy(logs, world.candidate, { rewardRange: [0, 1] });
  });
  return { runs, smallest, trueValue: world.trueValue };
}

const coverage = (runs: OffPolicyEstimates[], trueValue: number, which: 'ips' | 'snips' | 'dr' | 'clippedDr'): number =>
  runs.filter((r) => r[which].lower <= trueValue && trueValue <= r[which].upper).length / runs.length;

describe('off-policy intervals over 200 seeded replications (issue 28, item 11)', { timeout: 600_000 }, () => {
  const friendly = replicate('friendly');
  const hard = replicate('hard');

  it('the logging policies are what they claim: propensities ≥ 0.1, and on the hard one down to the 1e-4s', () => {
    expect(Math.min(...friendly.smallest)).toBeGreaterThanOrEqual(0.1);
    expect(Math.min(...hard.smallest)).toBeLessThan(3e-4);
    expect(hard.smallest.filter((p) => p < 0.01).length).toBeGreaterThan(REPLICATIONS / 2);
  });

  it('the clipped DR 95% interval covers the true value on ≥ 90% of the replications, friendly and hard', () => {
    expect(coverage(friendly.runs, friendly.trueValue, 'clippedDr')).toBeGreaterThanOrEqual(0.9);
    expect(coverage(hard.runs, hard.trueValue, 'clippedDr')).toBeGreaterThanOrEqual(0.9);
  });

  it('the normal IPS interval does not on the hard policy (so the coverage test can fail)', () => {
    expect(coverage(friendly.runs, friendly.trueValue, 'ips')).toBeGreaterThanOrEqual(0.9);
    expect(coverage(hard.runs, hard.trueValue, 'ips')).toBeLessThan(0.9);
  });

  it('warns of a small effective sample size on the hard policy, never on the friendly one', () => {
    expect(friendly.runs.every((r) => r.warnings.length === 0)).toBe(true);
    expect(hard.runs.filter((r) => r.warnings.length === 1).length).toBeGreaterThanOrEqual(0.9 * REPLICATIONS);
    expect(hard.runs[0].warnings[0]).toMatch(/^the importance weights are worth \d+\.\d of 2000 decisions \(effective sample size below 10%\)/);
  });
});

describe('clipped DR', () => {
  const world = offPolicyWorld('hard');
  const logs = world.logs(1, 500);

  it('is DR when the cap clips nothing, and its interval holds the value', () => {
    const largest = Math.max(...logs.map((l) => world.candidate.actionProbabilities(l.context)[l.arm] / l.propensity));
    const r = evaluatePolicy(logs, world.candidate, { clip: largest });
    expect(r.clippedDr.value).toBeCloseTo(r.dr.value, 12);
    expect(r.clippedDr).toMatchObject({ clip: largest });
    expect(r.clippedDr.lower).toBeLessThanOrEqual(r.clippedDr.value);
    expect(r.clippedDr.upper).toBeGreaterThanOrEqual(r.clippedDr.value);
  });

  it('charges the clipped mass at the ends of the reward range: a cap of 1 leaves an interval at least that mass wide', () => {
    const r = evaluatePolicy(logs, world.candidate, { clip: 1, rewardRange: [0, 1] });
    expect(r.clippedDr.clippedMass).toBeGreaterThan(0);
    expect(r.clippedDr.upper - r.clippedDr.lower).toBeGreaterThanOrEqual(r.clippedDr.clippedMass);
    expect(r.rewardRange).toEqual([0, 1]);
  });

  it('warns when the logged rewards, the default range, are all one value', () => {
    const zeros = logs.map((l) => ({ ...l, reward: 0 }));
    expect(evaluatePolicy(zeros, world.candidate).warnings).toContain('every logged reward is 0: the clipped DR interval takes that as the reward range; pass the range the rewards can take');
    expect(evaluatePolicy(zeros, world.candidate, { rewardRange: [0, 1] }).warnings.filter((w) => w.startsWith('every logged reward'))).toEqual([]);
  });

  it('the empirical-Bernstein sides hold the normal ones, for the same cap', () => {
    const normal = evaluatePolicy(logs, world.candidate, { clip: 16, rewardRange: [0, 1] }).clippedDr;
    const bernstein = evaluatePolicy(logs, world.candidate, { clip: 16, rewardRange: [0, 1], clippedInterval: 'empirical-bernstein' }).clippedDr;
    expect(bernstein.value).toBe(normal.value);
    expect(bernstein.lower).toBeLessThan(normal.lower);
    expect(bernstein.upper).toBeGreaterThan(normal.upper);
  });

  it('refuses a reward outside the range it was told, a cap below 1 and an unknown interval', () => {
    expect(() => evaluatePolicy(logs, world.candidate, { clippedInterval: 'bootstrap' as 'normal' })).toThrow(/clippedInterval must be normal or empirical-bernstein/);
    expect(() => evaluatePolicy(logs, world.candidate, { rewardRange: [0, 0.5] })).toThrow(InputError);
    expect(() => evaluatePolicy(logs, world.candidate, { rewardRange: [0, 0.5] })).toThrow(/reward is outside rewardRange \[0, 0.5\] \(row \d+/);
    expect(() => evaluatePolicy(logs, world.candidate, { clip: 0.5 })).toThrow(/clip must be a finite number ≥ 1/);
    expect(() => evaluatePolicy(logs, world.candidate, { rewardRange: [1, 0] })).toThrow(/rewardRange must be/);
  });
});
