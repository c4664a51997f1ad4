import { describe, expect, it } from 'vitest';
import { ThompsonPolicy } from '../../src/bandit/index.js';
import { NormalArgmaxProbability } from '../../src/bandit/normal-argmax-probability.js';
import { Rng } from '../../src/rng/rng.js';
import { normalCdf } from '../../src/special/normal-cdf.js';

/** P(arm | x) by `draws` joint draws of θ through each model's own `sample` (scaled about the mean as the policy scales its draws): the reference the score draws must match. */
function sampledProbabilities(policy: ThompsonPolicy, x: Float64Array, draws: number, seed: number): Float64Array {
  const rng = Rng.fromSeed(seed);
  const width = policy.features.width;
  const phi = new Float64Array(policy.arms * width);
  for (let a = 0; a < policy.arms; a++) policy.features.write(x, a, phi, a * width);
  const means = policy.models.map((m) => m.posteriorMean());
  const theta = new Float64Array(width);
  const wins = new Float64Array(policy.arms);
  const shared = policy.features.layout !== 'disjoint';
  for (let s = 0; s < draws; s++) {
    let best = 0;
    let bestScore = -Infinity;
    for (let a = 0; a < policy.arms; a++) {
      const i = shared ? 0 : a;
      if (!shared || a === 0) {
        policy.models[i].sample(rng, theta);
        for (let j = 0; j < width; j++) theta[j] = means[i][j] + policy.exploration * (theta[j] - means[i][j]);
      }
      let score = 0;
      for (let j = 0; j < width; j++) score += theta[j] * phi[a * width + j];
      if (score > bestScore) {
        bestScore = score;
        best = a;
      }
    }
    wins[best]++;
  }
  return wins.map((w) => w / draws);
}

/** A policy whose arms have seen different data, so that P(arm | x) is spread over the arms. */
function trained(options: ConstructorParameters<typeof ThompsonPolicy>[0]): { policy: ThompsonPolicy; x: Float64Array } {
  const policy = new ThompsonPolicy(options);
  const rng = Rng.fromSeed(11);
  const dim = policy.dim;
  for (let t = 0; t < 24; t++) {
    const context = Float64Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : rng.normal()));
    const arm = t % policy.arms;
    const reward = options.rewards === 'real' ? context[1] * (arm - 1) + rng.normal() : rng.nextDouble() < 0.4 + 0.05 * arm ? 1 : 0;
    policy.learn({ context, arm }, reward);
  }
  return { policy, x: Float64Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : 0.4 * (j % 3) - 0.3)) };
}

describe('Thompson propensities by quadrature (disjoint arms with Gaussian posteriors)', () => {
  it('match a 200k-draw Monte Carlo through the models\' sample within 3e-3, and the decision says quadrature', () => {
    const { policy, x } = trained({ arms: 4, dim: 3, seed: 2 });
    const quadrature = policy.actionProbabilities(x);
    const sampled = sampledProbabilities(policy, x, 200_000, 7);
    for (let a = 0; a < 4; a++) expect(Math.abs(quadrature[a] - sampled[a])).toBeLessThan(3e-3);
    expect(Math.min(...quadrature)).toBeGreaterThan(0.01);
    const decision = policy.decide(x);
    expect(decision.propensityMethod).toBe('quadrature');
    expect(decision.propensity).toBeCloseTo(quadrature[decision.arm], 9);
  });

  it('the arms drawn follow the propensities (chi-square over 4000 decisions at one context, fixed seed)', () => {
    const { policy, x } = trained({ arms: 4, dim: 3, seed: 3 });
    const p = policy.actionProbabilities(x);
    expect(Math.min(...p) * 4000).toBeGreaterThan(20);
    const counts = new Float64Array(4);
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const decision = policy.decide(x);
      expect(decision.propensity).toBeCloseTo(p[decision.arm], 9);
      counts[decision.arm]++;
    }
    const chiSquare = counts.reduce((sum, c, a) => sum + (c - n * p[a]) ** 2 / (n * p[a]), 0);
    expect(chiSquare).toBeLessThan(16.27); // χ²(3) at 0.999
  });
});

describe('Thompson score draws with Monte Carlo propensities', () => {
  it.each([
    ['vb-linear arms (Student-t scores)', { arms: 3, dim: 3, seed: 4, rewards: 'real' as const, propensityDraws: 20_000 }],
    ['one hybrid vb-logit-online model (jointly normal scores)', { arms: 3, dim: 3, seed: 4, layout: 'hybrid' as const, armFeatures: [[1, 0.5], [0, 1], [-1, 0.5]], propensityDraws: 20_000 }],
    ['one shared vb-linear model (rank-deficient score covariance)', { arms: 3, dim: 3, seed: 4, rewards: 'real' as const, layout: 'shared' as const, armFeatures: [[1], [0.5], [-1]], propensityDraws: 20_000 }],
  ])('%s: the action distribution matches draws of θ through sample', (_, options) => {
    const { policy, x } = trained(options);
    const scoreDraws = policy.actionProbabilities(x);
    const sampled = sampledProbabilities(policy, x, 100_000, 8);
    for (let a = 0; a < 3; a++) expect(Math.abs(scoreDraws[a] - sampled[a])).toBeLessThan(0.015);
    expect(policy.decide(x).propensityMethod).toBe('monte-carlo');
  });

  it('disjoint Student-t arms: a decision\'s propensity (the chosen arm\'s wins only, arms far below it settled by a uniform) matches draws of θ through sample', () => {
    // Two arms 20 above the other two, one record each: Student-t scores of 3 degrees of freedom, the
    // low arms far below the high ones, and the chosen arm below its floor in ~1.4% of the draws, where
    // the far arms are compared through their cdf.
    const policy = new ThompsonPolicy({ arms: 4, dim: 2, seed: 6, rewards: 'real', propensityDraws: 200_000 });
    const rng = Rng.fromSeed(12);
    for (let t = 0; t < 4; t++) {
      const context = Float64Array.of(1, rng.normal());
      policy.learn({ context, arm: t }, (t < 2 ? 20 : 0) + 0.5 * rng.normal());
    }
    const x = Float64Array.of(1, 0.3);
    const sampled = sampledProbabilities(policy, x, 400_000, 9);
    for (let i = 0; i < 6; i++) {
      const decision = policy.decide(x);
      expect(decision.propensityMethod).toBe('monte-carlo');
      expect(Math.abs(decision.propensity - sampled[decision.arm])).toBeLessThan(0.003);
    }
  });
});

describe('NormalArgmaxProbability', () => {
  /** The same integral by Simpson's rule on panels of sd/40 about every arm (out to ±12 sds): resolves every arm whatever the others' scales. */
  function reference(means: number[], sds: number[], arm: number): number {
    const points = means.flatMap((m, b) => Array.from({ length: 961 }, (_, k) => m + ((k - 480) / 40) * sds[b])).sort((p, q) => p - q);
    const integrand = (t: number): number => {
      const u = (t - means[arm]) / sds[arm];
      let value = Math.exp(-0.5 * u * u) / (sds[arm] * Math.sqrt(2 * Math.PI));
      for (let b = 0; b < means.length; b++) if (b !== arm) value *= normalCdf((t - means[b]) / sds[b]);
      return value;
    };
    let sum = 0;
    for (let i = 0; i + 1 < points.length; i++) {
      const [a, b] = [points[i], points[i + 1]];
      sum += ((b - a) / 6) * (integrand(a) + 4 * integrand(0.5 * (a + b)) + integrand(b));
    }
    return sum;
  }

  it.each([
    ['similar arms', [0.1, 0, -0.2, 0.05], [1, 0.8, 1.2, 0.9]],
    ['a narrow arm inside a wide one', [0, 0.3, -1], [5, 0.01, 0.5]],
    ['far apart', [0, 20, -3], [1, 0.5, 2]],
    ['sds over six orders of magnitude', [1, 1.0001, 0.5, 2], [1e-4, 1e2, 1, 1e-3]],
  ])('%s: every arm within 1e-8 of a fine Simpson rule, summing to 1 within 1e-8', (_, means, sds) => {
    const argmax = new NormalArgmaxProbability(means.length);
    let total = 0;
    for (let a = 0; a < means.length; a++) {
      const p = argmax.probability(Float64Array.from(means), Float64Array.from(sds), a);
      expect(Math.abs(p - reference(means, sds, a))).toBeLessThan(1e-8);
      total += p;
    }
    expect(Math.abs(total - 1)).toBeLessThan(1e-8);
  });

  it('a zero sd is a point mass: the other arms\' cdfs at it, ties to the first', () => {
    const argmax = new NormalArgmaxProbability(3);
    const means = Float64Array.of(0.5, 0.5, 0);
    expect(argmax.probability(means, Float64Array.of(0, 1, 2), 0)).toBeCloseTo(0.5 * normalCdf(0.25), 14);
    expect(argmax.probability(means, Float64Array.of(0, 0, 0), 0)).toBe(1);
    expect(argmax.probability(means, Float64Array.of(0, 0, 0), 1)).toBe(0);
  });
});
