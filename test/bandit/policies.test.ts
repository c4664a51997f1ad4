import { describe, expect, it } from 'vitest';
import { ArmFeatureMap, EpsilonGreedyPolicy, LinUcbPolicy, restorePolicy, SimulatedBandit, simulateBandit, ThompsonPolicy, type BanditPolicy } from '../../src/bandit/index.js';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { thrownBy } from '../helpers/thrown-by.js';

const ARMS = 3;
const DIM = 4;
const oneHot = Array.from({ length: ARMS }, (_, a) => Array.from({ length: ARMS }, (_, i) => (i === a ? 1 : 0)));

const policies: [string, () => BanditPolicy][] = [
  ['thompson (vb-logit-online arms)', () => new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 5, propensityDraws: 20 })],
  ['thompson (hybrid, one shared vb-logit-online model)', () => new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 5, layout: 'hybrid', armFeatures: [[1, 0.5], [0, 1], [-1, 0.5]], propensityDraws: 20, forget: 0.999 })],
  ['thompson (vb-linear arms: Student-t score draws, Monte Carlo propensity)', () => new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 5, rewards: 'real', propensityDraws: 20 })],
  ['thompson (adf-logit arms: draws of θ through sample)', () => new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 5, model: { family: 'adf-logit' }, propensityDraws: 20 })],
  ['LinUCB', () => new LinUcbPolicy({ arms: ARMS, dim: DIM, alpha: 0.7, seed: 5 })],
  ['LinUCB (hybrid)', () => new LinUcbPolicy({ arms: ARMS, dim: DIM, seed: 5, layout: 'hybrid', armFeatures: [[1, 0.5], [0, 1], [-1, 0.5]] })],
  ['epsilon-greedy', () => new EpsilonGreedyPolicy({ arms: ARMS, dim: DIM, seed: 5, epsilon: 0.2 })],
];

/** `steps` decide/learn rounds against a seeded world; the decisions as plain values. */
function play(policy: BanditPolicy, world: SimulatedBandit, steps: number): unknown[] {
  const out: unknown[] = [];
  for (let t = 0; t < steps; t++) {
    const decision = policy.decide(world.context());
    out.push({ ...decision, context: Array.from(decision.context), scores: Array.from(decision.scores) });
    policy.learn(decision, world.reward(decision.context, decision.arm));
  }
  return out;
}

describe.each(policies)('%s', (_, make) => {
  it('is deterministic given its seed, with ids counting decisions', () => {
    const a = play(make(), new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 1 }), 60);
    expect(play(make(), new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 1 }), 60)).toEqual(a);
    expect((a[0] as { decisionId: string }).decisionId).toMatch(/^[a-z]5-1$/);
    expect((a[59] as { decisionId: string }).decisionId).toMatch(/-60$/);
  });

  it('refuses a context with a finite but huge value (issue 26, item 11) with an InputError naming context[i] and the value, drawing and counting nothing', () => {
    const policy = make();
    const twin = make();
    const world = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 6 });
    const twinWorld = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 6 });
    expect(play(policy, world, 10)).toEqual(play(twin, twinWorld, 10));
    for (const [i, value] of [[1, 1e200], [3, -1e13]]) {
      const context = Float64Array.of(1, 0.2, -0.1, 0.3);
      context[i] = value;
      for (const call of [() => policy.decide(context), () => policy.expectedRewards(context), () => policy.learn({ context, arm: 0 }, 1)]) {
        const thrown = thrownBy(call);
        expect(thrown).toBeInstanceOf(InputError);
        expect((thrown as InputError).location).toEqual({ field: `context[${i}]`, value });
        expect((thrown as InputError).reason).toBe('feature is out of range: |value| > maxAbsInput (1e+12)');
      }
    }
    expect(policy.decisions).toBe(10);
    expect(play(policy, world, 5)).toEqual(play(twin, twinWorld, 5));
    expect(Number.isFinite(policy.decide(Float64Array.of(1, 1e12, -1e12, 0.3)).propensity), 'a context at the bound gets a finite propensity').toBe(true);
  });

  it('snapshot → bytes → restorePolicy continues bit for bit', () => {
    const policy = make();
    const world = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 2 });
    play(policy, world, 80);
    const { snapshot } = decodeSnapshot(encodeSnapshot(policy.snapshot()));
    const restored = restorePolicy(snapshot);
    expect(restored.name).toBe(policy.name);
    expect(restored.decisions).toBe(80);
    const twin = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 2 });
    play(make(), twin, 80);
    expect(play(restored, twin, 40)).toEqual(play(policy, world, 40));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(policy.snapshot()));
  });

  it('propensities are probabilities and the action distribution sums to 1', () => {
    const policy = make();
    const world = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 3 });
    play(policy, world, 50);
    const x = world.context();
    const decision = policy.decide(x);
    expect(decision.propensity).toBeGreaterThan(0);
    expect(decision.propensity).toBeLessThanOrEqual(1);
    const probabilities = policy.actionProbabilities(x);
    expect(probabilities).toHaveLength(ARMS);
    expect(probabilities.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
  });

  it('expectedRewards draws nothing and, after learning, ranks the arms as the world does on most contexts', () => {
    const policy = make();
    const world = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 4 });
    play(policy, world, 600);
    const twin = restorePolicy(policy.snapshot());
    const x = world.context();
    expect(policy.expectedRewards(x)).toHaveLength(ARMS);
    expect(play(policy, new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 5 }), 5)).toEqual(play(twin, new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 5 }), 5));
    const argmax = (v: Float64Array): number => v.indexOf(Math.max(...v));
    let agree = 0;
    for (let i = 0; i < 200; i++) {
      const c = world.context();
      if (argmax(policy.expectedRewards(c)) === argmax(world.expectedRewards(c))) agree++;
    }
    expect(agree).toBeGreaterThan(200 / ARMS + 40);
  });
});

describe('vb-linear arms', () => {
  it('a restored policy continues bit for bit (the arms keep their posterior in their state)', () => {
    const make = (): ThompsonPolicy => new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 5, rewards: 'real', propensityDraws: 20 });
    const policy = make();
    const world = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 2, rewards: 'gaussian' });
    play(policy, world, 80);
    const restored = restorePolicy(decodeSnapshot(encodeSnapshot(policy.snapshot())).snapshot) as ThompsonPolicy;
    const twin = new SimulatedBandit({ arms: ARMS, dim: DIM, seed: 2, rewards: 'gaussian' });
    play(make(), twin, 80);
    const arms = (decisions: unknown[]): number[] => decisions.map((d) => (d as { arm: number }).arm);
    expect(arms(play(restored, twin, 40))).toEqual(arms(play(policy, world, 40)));
    policy.models.forEach((model, a) => expect(Array.from(restored.models[a].posteriorMean())).toEqual(Array.from(model.posteriorMean())));
    expect(restored.snapshot()).toEqual(policy.snapshot());
  });
});

describe('propensities', () => {
  it('ε-greedy: exactly 1 − ε + ε/K for the greedy arm and ε/K for the others', () => {
    const policy = new EpsilonGreedyPolicy({ arms: 4, dim: 1, seed: 1, epsilon: 0.2 });
    const x = Float64Array.of(1);
    for (let i = 0; i < 30; i++) policy.learn({ context: x, arm: 2 }, 1);
    const probabilities = policy.actionProbabilities(x);
    [0.05, 0.05, 0.85, 0.05].forEach((p, a) => expect(probabilities[a]).toBeCloseTo(p, 15));
    const seen = new Map<number, number>();
    for (let i = 0; i < 2000; i++) {
      const d = policy.decide(x);
      expect(d.propensityMethod).toBe('exact');
      expect(d.propensity).toBe(probabilities[d.arm]);
      seen.set(d.arm, (seen.get(d.arm) ?? 0) + 1);
    }
    expect(Math.abs(seen.get(2)! / 2000 - 0.85)).toBeLessThan(4 * Math.sqrt(0.85 * 0.15 / 2000));
  });

  it('LinUCB: 1 for a unique best bound, ties split evenly and broken by the seeded generator', () => {
    const policy = new LinUcbPolicy({ arms: 3, dim: 1, seed: 9 });
    const x = Float64Array.of(1);
    const first = policy.decide(x);
    expect(first.propensity).toBeCloseTo(1 / 3, 15);
    expect(Array.from(policy.actionProbabilities(x))).toEqual([1 / 3, 1 / 3, 1 / 3]);
    const arms = new Set(Array.from({ length: 60 }, () => policy.decide(x).arm));
    expect(arms.size).toBe(3);
    policy.learn({ context: x, arm: 1 }, 1);
    const decision = policy.decide(x);
    expect([decision.arm, decision.propensity, decision.propensityMethod]).toEqual([1, 1, 'exact']);
  });

  it('Thompson through sample (a family without a score view): the Monte Carlo propensity (1 + wins)/(1 + S) matches P(arm | x) within its error', () => {
    const policy = new ThompsonPolicy({ arms: 3, dim: 2, seed: 4, model: { family: 'adf-logit' }, propensityDraws: 400, exploration: 1 });
    const x = Float64Array.of(1, 0.3);
    for (let i = 0; i < 6; i++) policy.learn({ context: x, arm: 0 }, 1);
    for (let i = 0; i < 6; i++) policy.learn({ context: x, arm: 1 }, i % 2);
    const truth = new ThompsonPolicy({ models: policy.models, seed: 99, propensityDraws: 40_000, exploration: 1 }).actionProbabilities(x);
    for (let i = 0; i < 20; i++) {
      const d = policy.decide(x);
      expect(d.propensityMethod).toBe('monte-carlo');
      const p = truth[d.arm];
      expect(Math.abs(d.propensity - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / 400) + 1 / 401);
    }
  });
});

describe('arm layouts', () => {
  it('φ(x, a) is z_a ⊗ x (shared) and [z_a ⊗ x, e_a ⊗ x] (hybrid)', () => {
    const x = Float64Array.of(1, 2);
    const z = Float64Array.of(3, 5, 7, 11);
    const shared = new ArmFeatureMap('shared', 2, 2, z);
    const hybrid = new ArmFeatureMap('hybrid', 2, 2, z);
    const out = new Float64Array(8);
    shared.write(x, 1, out);
    expect(Array.from(out.subarray(0, shared.width))).toEqual([7, 14, 11, 22]);
    hybrid.write(x, 1, out);
    expect(Array.from(out)).toEqual([7, 14, 11, 22, 0, 0, 1, 2]);
    expect(() => new ArmFeatureMap('hybrid', 2, 2, new Float64Array(3))).toThrow(ConfigError);
    expect(() => new ArmFeatureMap('disjoint', 2, 2, z)).toThrow(/shared and hybrid/);
  });

  it('a shared model with one-hot arm features learns the disjoint problem: sublinear regret, well below ε-greedy', () => {
    const world = { arms: ARMS, dim: DIM, seed: 11 };
    const shared = simulateBandit(new ThompsonPolicy({ arms: ARMS, dim: DIM, seed: 1, layout: 'shared', armFeatures: oneHot, propensityDraws: 1 }), world, 1500);
    const greedy = simulateBandit(new EpsilonGreedyPolicy({ arms: ARMS, dim: DIM, seed: 1 }), world, 1500);
    const half = shared.cumulative[749];
    expect(shared.cumulative[1499] - half).toBeLessThan(half);
    expect(shared.cumulative[1499]).toBeLessThan(greedy.cumulative[1499]);
  });

  it('LinUCB over one-hot arm features in one shared ridge regression is disjoint LinUCB (block-diagonal A)', () => {
    const world = { arms: ARMS, dim: DIM, seed: 12 };
    const disjoint = new LinUcbPolicy({ arms: ARMS, dim: DIM, seed: 1 });
    const shared = new LinUcbPolicy({ arms: ARMS, dim: DIM, seed: 1, layout: 'shared', armFeatures: oneHot });
    const a = simulateBandit(disjoint, world, 300);
    const b = simulateBandit(shared, world, 300);
    expect(b.cumulative[299]).toBeCloseTo(a.cumulative[299], 9);
    const x = new SimulatedBandit(world).context();
    disjoint.upperBounds(x).forEach((u, arm) => expect(shared.upperBounds(x)[arm]).toBeCloseTo(u, 12));
  });

  it('refuses what cannot work: a family without a linear predictor, forgetting without forget(), bad options', () => {
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, seed: 1, model: { family: 'vi-per' }, forget: 0.9 })).toThrow(/forget/);
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, seed: 1, exploration: 0 })).toThrow(ConfigError);
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, seed: 1.5 })).toThrow(ConfigError);
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, seed: 1, layout: 'hybrid' })).toThrow(/armFeatures/);
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, seed: 1, model: { family: 'sparse-gp' } })).toThrow(ConfigError);
    const policy = new ThompsonPolicy({ arms: 2, dim: 2, seed: 1 });
    expect(() => policy.decide(Float64Array.of(1))).toThrow(/1 features but the policy has 2/);
    expect(() => policy.learn({ context: Float64Array.of(1, 0), arm: 2 }, 1)).toThrow(/arm must be/);
  });
});
