import { describe, expect, it } from 'vitest';
import { EpsilonGreedyPolicy } from '../../src/bandit/epsilon-greedy-policy.js';
import { LinUcbPolicy } from '../../src/bandit/lin-ucb-policy.js';
import { mergePolicy } from '../../src/bandit/merge-policy.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { Rng } from '../../src/rng/rng.js';

/** Two policies fed disjoint halves of the same rewards, and a fresh one into which both are merged. */
function halves<P extends ThompsonPolicy | EpsilonGreedyPolicy>(create: () => P): { merged: P; parts: P[] } {
  const rng = Rng.fromSeed(3);
  const parts = [create(), create()];
  for (let t = 0; t < 60; t++) {
    const context = Float64Array.from([1, rng.normal(), rng.normal()]);
    parts[t % 2].learn({ context, arm: t % 3 }, Number(rng.nextDouble() < 0.4));
  }
  const merged = create();
  for (const part of parts) mergePolicy(merged, part);
  return { merged, parts };
}

describe('mergePolicy', () => {
  it('merges a Thompson policy arm by arm with the family\'s merge', () => {
    const create = () => new ThompsonPolicy({ seed: 1, arms: 3, dim: 3, rewards: 'real' });
    const { merged, parts } = halves(create);
    for (let a = 0; a < 3; a++) {
      const expected = create().models[a];
      for (const part of parts) expected.merge!(part.models[a]);
      expect(Array.from(merged.models[a].posteriorMean())).toEqual(Array.from(expected.posteriorMean()));
      expect(merged.models[a].recordsSeen).toBe(parts[0].models[a].recordsSeen + parts[1].models[a].recordsSeen);
    }
  });

  it('merges ε-greedy policies and vb-logit-online arms (SDA-Bayes)', () => {
    const { merged, parts } = halves(() => new EpsilonGreedyPolicy({ seed: 1, arms: 3, dim: 3 }));
    expect(merged.models.map((m) => m.recordsSeen)).toEqual(parts[0].models.map((m, a) => m.recordsSeen + parts[1].models[a].recordsSeen));
  });

  it('refuses LinUCB, policies of another shape and families without merge with a ConfigError', () => {
    expect(() => mergePolicy(new LinUcbPolicy({ arms: 2, dim: 2 }), new LinUcbPolicy({ arms: 2, dim: 2 }))).toThrow(ConfigError);
    expect(() => mergePolicy(new ThompsonPolicy({ seed: 1, arms: 2, dim: 2 }), new ThompsonPolicy({ seed: 1, arms: 3, dim: 2 }))).toThrow(ConfigError);
    expect(() => mergePolicy(new ThompsonPolicy({ seed: 1, arms: 2, dim: 2 }), new EpsilonGreedyPolicy({ seed: 1, arms: 2, dim: 2 }))).toThrow(ConfigError);
    const unmergeable = () => new ThompsonPolicy({ seed: 1, arms: 2, dim: 2, model: { family: 'vi-per' } });
    expect(() => mergePolicy(unmergeable(), unmergeable())).toThrow(/has no merge/);
  });
});
