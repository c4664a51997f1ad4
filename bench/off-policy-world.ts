import { SimulatedBandit } from '../src/bandit/simulated-bandit.js';
import type { ActionDistribution } from '../src/bandit/bandit-policy.js';
import type { LoggedDecision } from '../src/bandit/off-policy-evaluation.js';
import { Rng } from '../src/rng/rng.js';

/** The two logging policies of the off-policy coverage test and bench. */
export type LoggingKind = 'friendly' | 'hard';

/** A seeded off-policy evaluation problem: a candidate, its true value and logs of a known logging policy. */
export interface OffPolicyWorld {
  readonly candidate: ActionDistribution;
  readonly trueValue: number;
  /** n decisions logged by the logging policy: contexts, arms and Bernoulli rewards from the seed's own generator. */
  logs(seed: number, n: number): LoggedDecision[];
}

const K = 3;
const D = 3;

/**
 * K = 3 arms, d = 3 (a bias and 2 N(0, 1) features), logistic rewards (θₐ ~ N(0, I), seed 17); the
 * candidate plays the truly best arm with probability 0.8 + 0.2/3. The logging policy is a softmax of
 * −s·E[r | x, a] (it prefers the arms the candidate avoids) mixed with a uniform share u:
 * `friendly` s = 2, u = 0.3 (every propensity ≥ 0.1); `hard` s = 15, u = 0 (propensities down to
 * 1.2e-4 over 200 logs of 2,000; the large weights are rare, so the normal intervals undercover);
 * or any logging policy given as a function of the context.
 */
export function offPolicyWorld(kind: LoggingKind | ((context: Float64Array) => Float64Array)): OffPolicyWorld {
  const truth = new SimulatedBandit({ arms: K, dim: D, seed: 17 });
  const [sharpness, uniform] = kind === 'friendly' ? [2, 0.3] : [15, 0];
  const logging = typeof kind === 'function' ? kind : (x: Float64Array): Float64Array => {
    const scores = Array.from(truth.expectedRewards(x), (r) => -sharpness * r);
    const top = Math.max(...scores);
    const e = scores.map((s) => Math.exp(s - top));
    const total = e.reduce((s, v) => s + v, 0);
    return Float64Array.from(e, (v) => ((1 - uniform) * v) / total + uniform / K);
  };
  const candidate: ActionDistribution = {
    arms: K,
    actionProbabilities(x) {
      const expected = truth.expectedRewards(x);
      const best = expected.indexOf(Math.max(...expected));
      return Float64Array.from({ length: K }, (_, a) => (a === best ? 0.8 : 0) + 0.2 / K);
    },
  };
  const world = new SimulatedBandit({ arms: K, dim: D, seed: 17 });
  let sum = 0;
  for (let i = 0; i < 100_000; i++) {
    const x = world.context();
    const p = candidate.actionProbabilities(x);
    const r = world.expectedRewards(x);
    for (let a = 0; a < K; a++) sum += p[a] * r[a];
  }
  return {
    candidate,
    trueValue: sum / 100_000,
    logs(seed, n) {
      const rng = Rng.fromSeed(seed);
      return Array.from({ length: n }, () => {
        const context = Float64Array.from({ length: D }, (_, j) => (j === 0 ? 1 : rng.normal()));
        const p = logging(context);
        let u = rng.nextDouble();
        let arm = 0;
        while (arm < K - 1 && u >= p[arm]) u -= p[arm++];
        return { context, arm, propensity: p[arm], reward: rng.nextDouble() < truth.expectedRewards(context)[arm] ? 1 : 0 };
      });
    },
  };
}
