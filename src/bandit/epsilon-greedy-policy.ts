import { ConfigError } from '../core/config-error.js';
import type { ModelSnapshot } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';
import { optionChecks } from '../core/option-checks.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { Rng } from '../rng/rng.js';
import type { ArmModelSpec, RewardKind } from './arm-model-spec.js';
import { BANDIT_ARM_MODELS } from './bandit-arm-models.js';
import { createArmModels } from './create-arm-models.js';
import { packArmSnapshots } from './pack-arm-snapshots.js';
import { unpackArmSnapshots } from './unpack-arm-snapshots.js';
import type { BanditDecision } from './bandit-decision.js';
import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { checkContext } from './check-context.js';
import { JsonFloat64Array } from './json-float64-array.js';

const FAMILY = 'bandit/epsilon-greedy';
const VERSION = 1;

/** Options of {@link EpsilonGreedyPolicy}. */
export interface EpsilonGreedyPolicyOptions {
  readonly seed: number;
  /** Number of arms K (or give `models`). */
  readonly arms?: number;
  /** Context features d (or give `models`). */
  readonly dim?: number;
  /** Probability ε of a uniformly random arm (default 0.1). */
  readonly epsilon?: number;
  /** Picks the default arm model, as for Thompson sampling. */
  readonly rewards?: RewardKind;
  /** Any registered family and its options; overrides `rewards`. */
  readonly model?: ArmModelSpec;
  /** Live per-arm models instead of fresh ones. */
  readonly models?: readonly OnlineModel[];
  /** Decision ids are `${idPrefix}-${n}`; default `e${seed}`. */
  readonly idPrefix?: string;
}

/**
 * ε-greedy over per-arm posteriors: with probability ε a uniformly random arm, otherwise the arm with
 * the largest posterior predictive mean E[r | x, a] (ties to the first). The propensity is exact:
 * 1 − ε + ε/K for the greedy arm, ε/K for the others.
 */
export class EpsilonGreedyPolicy implements BanditPolicy {
  readonly name: string;
  readonly arms: number;
  readonly dim: number;
  readonly epsilon: number;
  readonly models: readonly OnlineModel[];
  readonly idPrefix: string;
  private readonly rng: Rng;
  private count = 0;
  private readonly batch: { x: Float64Array; y: Float64Array; n: number; d: number };

  constructor(options: EpsilonGreedyPolicyOptions, restored?: { readonly rng: Rng; readonly decisions: number }) {
    if (!Number.isSafeInteger(options.seed)) throw new ConfigError('seed must be a safe integer', { field: 'seed', value: options.seed });
    this.arms = optionChecks.positiveInteger('arms', options.arms ?? options.models?.length, 0);
    this.dim = optionChecks.positiveInteger('dim', options.dim ?? options.models?.[0]?.dim, 0);
    this.epsilon = optionChecks.inRange('epsilon', options.epsilon, 0.1, 0, 1);
    this.models = options.models ?? createArmModels(options.model ?? BANDIT_ARM_MODELS[options.rewards ?? 'binary'], this.arms, this.dim);
    if (this.models.length !== this.arms || this.models.some((m) => m.dim !== this.dim)) throw new ConfigError(`needs ${this.arms} models of ${this.dim} features`, { field: 'models' });
    this.idPrefix = options.idPrefix ?? `e${options.seed}`;
    this.rng = restored?.rng ?? Rng.fromSeed(options.seed);
    this.count = restored?.decisions ?? 0;
    this.name = `epsilon-greedy (${this.epsilon})`;
    this.batch = { x: new Float64Array(this.dim), y: new Float64Array(1), n: 1, d: this.dim };
  }

  get decisions(): number {
    return this.count;
  }

  decide(context: Float64Array): BanditDecision {
    const scores = this.means(context);
    const greedy = argmax(scores);
    const k = this.arms;
    const explore = this.rng.nextDouble() < this.epsilon;
    const arm = explore ? Math.min(k - 1, Math.floor(this.rng.nextDouble() * k)) : greedy;
    return { decisionId: `${this.idPrefix}-${++this.count}`, context: JsonFloat64Array.from(context), arm, propensity: (arm === greedy ? 1 - this.epsilon : 0) + this.epsilon / k, propensityMethod: 'exact', scores: JsonFloat64Array.from(scores) };
  }

  /** The posterior predictive mean of every arm's reward (the scores the greedy choice maximises). */
  expectedRewards(context: Float64Array): Float64Array {
    return this.means(context);
  }

  actionProbabilities(context: Float64Array): Float64Array {
    const greedy = argmax(this.means(context));
    return Float64Array.from({ length: this.arms }, (_, a) => (a === greedy ? 1 - this.epsilon : 0) + this.epsilon / this.arms);
  }

  learn(played: PlayedArm, reward: number): void {
    checkContext(played.context, this.dim);
    if (!Number.isInteger(played.arm) || played.arm < 0 || played.arm >= this.arms) throw new ConfigError(`arm must be an integer in [0, ${this.arms})`, { field: 'arm', value: played.arm });
    this.batch.x.set(played.context);
    this.batch.y[0] = reward;
    this.models[played.arm].update(this.batch);
  }

  snapshot(): ModelSnapshot {
    const { headers, arrays } = packArmSnapshots(this.models);
    return {
      family: FAMILY, version: VERSION, dim: this.dim,
      header: { arms: this.arms, epsilon: this.epsilon, idPrefix: this.idPrefix, decisions: this.count, rng: Array.from(this.rng.getState()), models: headers },
      arrays,
    };
  }

  static restore(snapshot: ModelSnapshot): EpsilonGreedyPolicy {
    if (snapshot.family !== FAMILY || snapshot.version !== VERSION) throw new SnapshotError(`not a ${FAMILY} v${VERSION} snapshot: ${snapshot.family} v${snapshot.version}`);
    const h = snapshot.header as { arms: number; epsilon: number; idPrefix: string; decisions: number; rng: number[] };
    return new EpsilonGreedyPolicy(
      { seed: 0, arms: h.arms, dim: snapshot.dim, epsilon: h.epsilon, idPrefix: h.idPrefix, models: unpackArmSnapshots(snapshot.header.models, snapshot.arrays) },
      { rng: Rng.fromState(Uint32Array.from(h.rng)), decisions: h.decisions },
    );
  }

  /** The posterior predictive mean of every arm at the context. */
  private means(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    return Float64Array.from(this.models, (m) => m.predict(context).mean);
  }
}

function argmax(values: Float64Array): number {
  let best = 0;
  for (let a = 1; a < values.length; a++) if (values[a] > values[best]) best = a;
  return best;
}
