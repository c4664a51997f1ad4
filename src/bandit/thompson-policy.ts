import { ConfigError } from '../core/config-error.js';
import type { JsonValue, ModelSnapshot } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';
import { optionChecks } from '../core/option-checks.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { dot } from '../linalg/dot.js';
import { Rng } from '../rng/rng.js';
import { ArmFeatureMap, type ArmLayout } from './arm-layout.js';
import type { ArmModelSpec, RewardKind } from './arm-model-spec.js';
import { BANDIT_ARM_MODELS } from './bandit-arm-models.js';
import { createArmModels } from './create-arm-models.js';
import { packArmSnapshots } from './pack-arm-snapshots.js';
import { unpackArmSnapshots } from './unpack-arm-snapshots.js';
import type { BanditDecision } from './bandit-decision.js';
import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { checkContext } from './check-context.js';

/** Snapshot family id and layout version of {@link ThompsonPolicy}. */
const FAMILY = 'bandit/thompson';
const VERSION = 1;

/** Options of {@link ThompsonPolicy}. */
export interface ThompsonPolicyOptions {
  /** Seeds the generator of every draw; the same seed and the same rewards replay the same decisions. */
  readonly seed: number;
  /** Number of arms K (or give `models`). */
  readonly arms?: number;
  /** Context features d (or give `models`). */
  readonly dim?: number;
  /** Picks the default arm model: `binary` (default) → vb-logit-online, `real` → vb-linear (see BANDIT_ARM_MODELS). */
  readonly rewards?: RewardKind;
  /** Any registered family that can `sample` a linear predictor, with its options; overrides `rewards`. */
  readonly model?: ArmModelSpec;
  /** `disjoint` (default), `shared` or `hybrid`: see {@link ArmLayout}. */
  readonly layout?: ArmLayout;
  /** K rows of m arm features z_a (shared and hybrid layouts). */
  readonly armFeatures?: readonly ArrayLike<number>[];
  /** Live models to decide with instead of fresh ones: one per arm (disjoint) or one of width φ (shared, hybrid). */
  readonly models?: readonly OnlineModel[];
  /** Extra joint posterior draws for the Monte Carlo propensity (default 100). */
  readonly propensityDraws?: number;
  /**
   * Scale s of every draw about the posterior mean, θ = μ + s·(θ̃ − μ): s² scales the posterior
   * covariance (Chapelle & Li 2011, §4). Default 0.5: with K = 5 arms and d = 10 features, plain
   * draws (s = 1) explore more than the rewards repay (regret 92 vs 66 at s = 0.5 and 71 for LinUCB
   * over T = 2000 logistic steps, 5 seeds); 1 is plain Thompson sampling.
   */
  readonly exploration?: number;
  /** Forgetting factor γ ∈ (0, 1] applied to every model before each reward is learned (default 1: none). */
  readonly forget?: number;
  /** Decision ids are `${idPrefix}-${n}`; default `t${seed}`. */
  readonly idPrefix?: string;
}

/**
 * Thompson sampling (Agrawal & Goyal 2013) over any family that can `sample` its weights. Each
 * decision draws θ from the posterior — one draw per arm's model (disjoint) or one draw of the shared
 * model — scores every arm θ·φ(x, a) and plays the largest (ties to the first).
 *
 * The propensity P(a | x) has no closed form; it is estimated by seeded Monte Carlo: `propensityDraws`
 * (S) further joint draws, counting how often each arm wins, with the decision's own draw counted as
 * one win of the chosen arm: p̂ = (1 + wins)/(1 + S). It is never 0 (so IPS weights stay finite), its
 * bias is (1 − p)/(1 + S) and its standard error √(p(1 − p)·S)/(1 + S) ≤ 0.5/√S (0.05 at S = 100).
 */
export class ThompsonPolicy implements BanditPolicy {
  readonly name: string;
  readonly arms: number;
  readonly dim: number;
  /** The live posteriors: one per arm (disjoint) or the one shared model. */
  readonly models: readonly OnlineModel[];
  readonly features: ArmFeatureMap;
  readonly propensityDraws: number;
  readonly forget: number;
  readonly exploration: number;
  readonly idPrefix: string;
  /** Posterior means μ of the models, refreshed at each decision when `exploration` ≠ 1. */
  private readonly means: Float64Array[];
  private readonly rng: Rng;
  private count = 0;
  private readonly theta: Float64Array;
  private readonly phi: Float64Array;
  private readonly wins: Float64Array;
  private readonly batch: { x: Float64Array; y: Float64Array; n: number; d: number };

  constructor(options: ThompsonPolicyOptions, restored?: { readonly rng: Rng; readonly decisions: number }) {
    if (!Number.isSafeInteger(options.seed)) throw new ConfigError('seed must be a safe integer', { field: 'seed', value: options.seed });
    const layout = options.layout ?? 'disjoint';
    const arms = options.arms ?? (layout === 'disjoint' ? options.models?.length : options.armFeatures?.length);
    const dim = options.dim ?? (layout === 'disjoint' ? options.models?.[0]?.dim : undefined);
    this.arms = optionChecks.positiveInteger('arms', arms, 0);
    this.dim = optionChecks.positiveInteger('dim', dim, 0);
    const rows = options.armFeatures ?? [];
    if (rows.length !== 0 && rows.length !== this.arms) throw new ConfigError(`armFeatures has ${rows.length} rows for ${this.arms} arms`, { field: 'armFeatures' });
    this.features = new ArmFeatureMap(layout, this.arms, this.dim, Float64Array.from(rows.flatMap((row) => Array.from(row))));
    const width = this.features.width;
    const count = layout === 'disjoint' ? this.arms : 1;
    this.models = options.models ?? createArmModels(options.model ?? BANDIT_ARM_MODELS[options.rewards ?? 'binary'], count, width);
    if (this.models.length !== count) throw new ConfigError(`the ${layout} layout needs ${count} model(s), got ${this.models.length}`, { field: 'models' });
    const probe = Rng.fromSeed(0);
    for (const [i, model] of this.models.entries()) {
      if (model.dim !== width) throw new ConfigError(`model ${i} has ${model.dim} features, φ(x, a) has ${width}`, { field: 'models', value: i });
      if (model.sample(probe).length !== width) throw new ConfigError(`family "${model.family}" samples no linear predictor of ${width} weights: Thompson sampling needs one`, { field: 'model', value: model.family });
    }
    this.propensityDraws = optionChecks.positiveInteger('propensityDraws', options.propensityDraws, 100);
    this.forget = optionChecks.inRange('forget', options.forget, 1, 0, 1, true);
    if (this.forget < 1 && this.models.some((m) => m.forget === undefined)) throw new ConfigError(`family "${this.models[0].family}" has no forget(); forgetting needs a family that has`, { field: 'forget', value: this.forget });
    this.exploration = optionChecks.positive('exploration', options.exploration, 0.5);
    this.means = this.models.map(() => new Float64Array(width));
    this.idPrefix = options.idPrefix ?? `t${options.seed}`;
    this.name = this.forget < 1 ? `thompson (forget ${this.forget})` : 'thompson';
    this.rng = restored?.rng ?? Rng.fromSeed(options.seed);
    this.count = restored?.decisions ?? 0;
    this.theta = new Float64Array(width);
    this.phi = new Float64Array(this.arms * width);
    this.wins = new Float64Array(this.arms);
    this.batch = { x: new Float64Array(width), y: new Float64Array(1), n: 1, d: width };
  }

  get decisions(): number {
    return this.count;
  }

  decide(context: Float64Array): BanditDecision {
    checkContext(context, this.dim);
    this.writeFeatures(context);
    const scores = new Float64Array(this.arms);
    const arm = this.draw(scores);
    this.wins.fill(0);
    this.wins[arm] = 1;
    this.countWins(this.propensityDraws, scores.slice());
    return { decisionId: `${this.idPrefix}-${++this.count}`, context: context.slice(), arm, propensity: this.wins[arm] / (1 + this.propensityDraws), propensityMethod: 'monte-carlo', scores };
  }

  /** The posterior predictive mean of every arm's reward, E[r | x, a] = E[y | φ(x, a)] (a probability for binary rewards). Draws nothing. */
  expectedRewards(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const width = this.features.width;
    const disjoint = this.features.layout === 'disjoint';
    for (let a = 0; a < this.arms; a++) this.features.write(context, a, this.phi, a * width);
    return Float64Array.from({ length: this.arms }, (_, a) => this.models[disjoint ? a : 0].predict(this.phi, a * width).mean);
  }

  /** Monte Carlo estimate of every arm's P(a | x): the share of `propensityDraws` joint draws it wins. Advances the generator. */
  actionProbabilities(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    this.writeFeatures(context);
    this.wins.fill(0);
    this.countWins(this.propensityDraws, new Float64Array(this.arms));
    return this.wins.map((w) => w / this.propensityDraws);
  }

  learn(played: PlayedArm, reward: number): void {
    checkContext(played.context, this.dim);
    if (!Number.isInteger(played.arm) || played.arm < 0 || played.arm >= this.arms) throw new ConfigError(`arm must be an integer in [0, ${this.arms})`, { field: 'arm', value: played.arm });
    if (this.forget < 1) for (const model of this.models) model.forget!(this.forget);
    this.features.write(played.context, played.arm, this.batch.x);
    this.batch.y[0] = reward;
    this.models[this.features.layout === 'disjoint' ? played.arm : 0].update(this.batch);
  }

  /** Every posterior (each family's own snapshot), the options, the decision counter and the generator. */
  snapshot(): ModelSnapshot {
    const { headers, arrays } = packArmSnapshots(this.models);
    const header: { [key: string]: JsonValue } = {
      arms: this.arms, layout: this.features.layout, propensityDraws: this.propensityDraws, forget: this.forget, exploration: this.exploration, idPrefix: this.idPrefix,
      decisions: this.count, rng: Array.from(this.rng.getState()), models: headers,
    };
    return { family: FAMILY, version: VERSION, dim: this.dim, header, arrays: { ...arrays, armFeatures: this.features.armFeatures.slice() } };
  }

  /** The policy of {@link ThompsonPolicy.snapshot}, continuing bit for bit. */
  static restore(snapshot: ModelSnapshot): ThompsonPolicy {
    if (snapshot.family !== FAMILY || snapshot.version !== VERSION) throw new SnapshotError(`not a ${FAMILY} v${VERSION} snapshot: ${snapshot.family} v${snapshot.version}`);
    const h = snapshot.header as { arms: number; layout: ArmLayout; propensityDraws: number; forget: number; exploration: number; idPrefix: string; decisions: number; rng: number[]; models: JsonValue };
    const m = h.arms === 0 ? 0 : snapshot.arrays.armFeatures.length / h.arms;
    const armFeatures = h.layout === 'disjoint' ? undefined : Array.from({ length: h.arms }, (_, a) => snapshot.arrays.armFeatures.subarray(a * m, a * m + m));
    return new ThompsonPolicy(
      { seed: 0, arms: h.arms, dim: snapshot.dim, layout: h.layout, armFeatures, models: unpackArmSnapshots(h.models, snapshot.arrays), propensityDraws: h.propensityDraws, forget: h.forget, exploration: h.exploration, idPrefix: h.idPrefix },
      { rng: Rng.fromState(Uint32Array.from(h.rng)), decisions: h.decisions },
    );
  }

  /** φ(x, a) of every arm into the scratch rows, and the posterior means when draws are scaled. */
  private writeFeatures(context: Float64Array): void {
    const width = this.features.width;
    for (let a = 0; a < this.arms; a++) this.features.write(context, a, this.phi, a * width);
    if (this.exploration !== 1) for (const [i, model] of this.models.entries()) this.means[i].set(model.posteriorMean());
  }

  /** θ of model i: a posterior draw, scaled about the mean by `exploration`. */
  private sampleTheta(i: number): void {
    this.models[i].sample(this.rng, this.theta);
    const s = this.exploration;
    if (s === 1) return;
    const mean = this.means[i];
    for (let j = 0; j < this.theta.length; j++) this.theta[j] = mean[j] + s * (this.theta[j] - mean[j]);
  }

  /** One joint posterior draw: every arm's score θ·φ(x, a) into `scores`; returns the best arm (ties to the first). */
  private draw(scores: Float64Array): number {
    const width = this.features.width;
    const shared = this.features.layout !== 'disjoint';
    if (shared) this.sampleTheta(0);
    let best = 0;
    for (let a = 0; a < this.arms; a++) {
      if (!shared) this.sampleTheta(a);
      scores[a] = dot(this.theta, this.phi, width, 0, a * width);
      if (scores[a] > scores[best]) best = a;
    }
    return best;
  }

  private countWins(draws: number, scratch: Float64Array): void {
    for (let s = 0; s < draws; s++) this.wins[this.draw(scratch)]++;
  }
}
