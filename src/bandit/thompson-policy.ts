import { ConfigError } from '../core/config-error.js';
import type { JsonValue, ModelSnapshot } from '../core/model-snapshot.js';
import type { OnlineModel } from '../core/online-model.js';
import { optionChecks } from '../core/option-checks.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { cholesky } from '../linalg/cholesky.js';
import { dot } from '../linalg/dot.js';
import { symmetricGemv } from '../linalg/symmetric-gemv.js';
import { symmetricQuadraticForm } from '../linalg/symmetric-quadratic-form.js';
import { Rng } from '../rng/rng.js';
import { normalCdf } from '../special/normal-cdf.js';
import { studentTCdf } from '../special/student-t-cdf.js';
import { ArmFeatureMap, type ArmLayout } from './arm-layout.js';
import type { ArmModelSpec, RewardKind } from './arm-model-spec.js';
import { BANDIT_ARM_MODELS } from './bandit-arm-models.js';
import { createArmModels } from './create-arm-models.js';
import { packArmSnapshots } from './pack-arm-snapshots.js';
import { unpackArmSnapshots } from './unpack-arm-snapshots.js';
import type { BanditDecision } from './bandit-decision.js';
import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { checkContext } from './check-context.js';
import { linearScorePosterior, type LinearScorePosterior } from './linear-score-posterior.js';
import { NormalArgmaxProbability } from './normal-argmax-probability.js';
import { JsonFloat64Array } from './json-float64-array.js';

/** Snapshot family id and layout version of {@link ThompsonPolicy}. */
const FAMILY = 'bandit/thompson';
const VERSION = 1;
/** Floor of a quadrature propensity: the chosen arm was drawn, so its probability is positive, and IPS weights stay finite. */
const MIN_PROPENSITY = 1e-12;
const SCORE_COVARIANCE = { what: 'score covariance ΦΣΦᵀ' };
/** The Monte Carlo propensity's floor L below the chosen arm's score location, in its scales: S_a ≥ L in all but the tail of a. */
const FLOOR_SCALES = 4;
/** An arm b is far below when P(S_b ≤ L) ≥ 1 − FAR_TAIL: a uniform decides most of its draws (see {@link ThompsonPolicy.chosenArmWins}). */
const FAR_TAIL = 1e-3;

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
  /** Extra joint posterior draws for the Monte Carlo propensity (default 100); unused where the propensity is by quadrature. */
  readonly propensityDraws?: number;
  /**
   * Scale s of every draw about the posterior mean, θ = μ + s·(θ̃ − μ): s² scales the posterior
   * covariance (Chapelle & Li 2011, §4). Default 0.5: with K = 5 arms and d = 10 features, plain
   * draws (s = 1) explore more than the rewards repay (regret 93 vs 66 at s = 0.5 and 71 for LinUCB
   * over T = 2000 logistic steps, 5 seeds); 1 is plain Thompson sampling. Not lower: s = 0.25 runs
   * away on some seeds of Gaussian rewards (docs/guide.md, "Thompson against LinUCB").
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
 * Score draws. Where the family's posterior is Gaussian in the weights given a precision scale τ
 * (vb-logit-online: τ ≡ 1; vb-linear(-ard): τ ~ Gam(a_N, b_N); see {@link LinearScorePosterior}),
 * only the scores θ·φ(x, a) matter and they are drawn directly, with the same distribution as
 * through d-dimensional θ: disjoint, K independent 1-D draws — m_a + s·√(xᵀΣ_a x)·z_a with z_a normal,
 * or with z_a·√(b_N/a_N) a Student-t of 2a_N degrees of freedom (τ_a integrated out; Bailey's polar
 * draw); shared and hybrid, one K-dimensional draw m + s·L·z/√τ, L the Cholesky factor of the K×K
 * score covariance Φ Σ Φᵀ. Other families draw θ with `sample`.
 *
 * Propensity P(a | x). Disjoint arms with Gaussian posteriors (the binary default): the scores are
 * independent normals, and P(a | x) = ∫ φ_a(t) Π_{b≠a} Φ_b(t) dt is computed by quadrature
 * (`propensityMethod: 'quadrature'`, error ≲ 1e-8, floored at 1e-12; see {@link NormalArgmaxProbability}).
 * Otherwise by seeded Monte Carlo (`'monte-carlo'`): `propensityDraws` (S) further joint draws,
 * counting how often each arm wins, with the decision's own draw counted as one win of the chosen
 * arm: p̂ = (1 + wins)/(1 + S). It is never 0 (so IPS weights stay finite), its bias is
 * (1 − p)/(1 + S) and its standard error √(p(1 − p)·S)/(1 + S) ≤ 0.5/√S (0.05 at S = 100). With
 * disjoint arms a draw that only decides whether the chosen arm wins costs less than a full one: an
 * arm far below the chosen one is settled by a uniform in most draws (see {@link chosenArmWins}).
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
  /** Score views of the models when every one has one (draws of the K scores instead of θ); undefined otherwise. */
  private readonly views: readonly LinearScorePosterior[] | undefined;
  /** Whether the propensity is computed by quadrature: disjoint arms with Gaussian posteriors. */
  private readonly quadrature: boolean;
  private readonly argmax: NormalArgmaxProbability;
  /** Score means m_a at the current context. */
  private readonly scoreMeans: Float64Array;
  /** Gamma shape and rate of each model's τ (shape Infinity: τ ≡ 1); the rate is kept for the shared model only. */
  private readonly precisionShapes: Float64Array;
  private readonly precisionRates: Float64Array;
  /** Disjoint: the scale of each arm's score (see {@link scoreMoments}). */
  private readonly scoreSds: Float64Array;
  /** Shared and hybrid: the K×K score covariance s²·ΦΣΦᵀ (lower triangle) and its Cholesky factor. */
  private readonly scoreCovariance: Float64Array;
  private readonly scoreFactor: Float64Array;
  /** Σ·φ(x, a) of one arm (shared and hybrid), and the standard normals of a joint draw. */
  private readonly covariancePhi: Float64Array;
  private readonly normals: Float64Array;
  private readonly drawn: Float64Array;
  /** Disjoint Monte Carlo propensity: the other arms drawn in full, those settled by a uniform, and each one's P(S_b ≤ L). */
  private readonly nearArms: Int32Array;
  private readonly farArms: Int32Array;
  private readonly farBelow: Float64Array;

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
    const views = this.models.map(linearScorePosterior);
    this.views = views.every((v) => v !== undefined) ? views as LinearScorePosterior[] : undefined;
    this.quadrature = layout === 'disjoint' && this.views !== undefined && this.views.every((v) => v.precisionShape === Infinity);
    this.argmax = new NormalArgmaxProbability(this.arms);
    this.scoreMeans = new Float64Array(this.arms);
    this.scoreSds = new Float64Array(this.arms);
    this.precisionShapes = new Float64Array(this.arms);
    this.precisionRates = new Float64Array(this.arms);
    const shared = layout !== 'disjoint' && this.views !== undefined;
    this.scoreCovariance = new Float64Array(shared ? this.arms * this.arms : 0);
    this.scoreFactor = new Float64Array(shared ? this.arms * this.arms : 0);
    this.covariancePhi = new Float64Array(shared ? width : 0);
    this.normals = new Float64Array(this.arms);
    this.drawn = new Float64Array(this.arms);
    this.nearArms = new Int32Array(this.arms);
    this.farArms = new Int32Array(this.arms);
    this.farBelow = new Float64Array(this.arms);
  }

  get decisions(): number {
    return this.count;
  }

  decide(context: Float64Array): BanditDecision {
    checkContext(context, this.dim);
    const scores = new Float64Array(this.arms);
    if (this.views === undefined) {
      this.writeFeatures(context);
      const arm = this.draw(scores);
      this.wins.fill(0);
      this.wins[arm] = 1;
      this.countWins(this.propensityDraws, this.drawn);
      return { decisionId: this.nextDecisionId(), context: JsonFloat64Array.from(context), arm, propensity: this.wins[arm] / (1 + this.propensityDraws), propensityMethod: 'monte-carlo', scores: JsonFloat64Array.from(scores) };
    }
    this.scoreMoments(context);
    const arm = this.drawScores(scores);
    if (this.quadrature) {
      const propensity = Math.max(MIN_PROPENSITY, this.argmax.probability(this.scoreMeans, this.scoreSds, arm));
      return { decisionId: this.nextDecisionId(), context: JsonFloat64Array.from(context), arm, propensity, propensityMethod: 'quadrature', scores: JsonFloat64Array.from(scores) };
    }
    let wins = 1;
    if (this.features.layout === 'disjoint') wins += this.chosenArmWins(arm, this.propensityDraws);
    else for (let s = 0; s < this.propensityDraws; s++) if (this.drawScores(this.drawn) === arm) wins++;
    return { decisionId: this.nextDecisionId(), context: JsonFloat64Array.from(context), arm, propensity: wins / (1 + this.propensityDraws), propensityMethod: 'monte-carlo', scores: JsonFloat64Array.from(scores) };
  }

  /** The posterior predictive mean of every arm's reward, E[r | x, a] = E[y | φ(x, a)] (a probability for binary rewards). Draws nothing. */
  expectedRewards(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const width = this.features.width;
    const disjoint = this.features.layout === 'disjoint';
    for (let a = 0; a < this.arms; a++) this.features.write(context, a, this.phi, a * width);
    return Float64Array.from({ length: this.arms }, (_, a) => this.models[disjoint ? a : 0].predict(this.phi, a * width).mean);
  }

  /** Counts a decision and returns its id. */
  private nextDecisionId(): string {
    return `${this.idPrefix}-${++this.count}`;
  }

  /**
   * Every arm's P(a | x): by quadrature (disjoint Gaussian posteriors; normalised to sum 1), else the
   * share of `propensityDraws` joint draws it wins (advancing the generator).
   */
  actionProbabilities(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const probabilities = new Float64Array(this.arms);
    if (this.quadrature) {
      this.scoreMoments(context);
      let total = 0;
      for (let a = 0; a < this.arms; a++) total += probabilities[a] = this.argmax.probability(this.scoreMeans, this.scoreSds, a);
      for (let a = 0; a < this.arms; a++) probabilities[a] /= total;
      return probabilities;
    }
    this.wins.fill(0);
    if (this.views === undefined) {
      this.writeFeatures(context);
      this.countWins(this.propensityDraws, this.drawn);
    } else {
      this.scoreMoments(context);
      for (let s = 0; s < this.propensityDraws; s++) this.wins[this.drawScores(this.drawn)]++;
    }
    for (let a = 0; a < this.arms; a++) probabilities[a] = this.wins[a] / this.propensityDraws;
    return probabilities;
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

  /**
   * The score distribution at the context: means m_a = μ·φ(x, a), and (disjoint) the scale of each
   * score — s·√(xᵀΣ_a x) for a normal, s·√(xᵀΣ_a x·b_a/a_a) for the Student-t with 2a_a degrees of
   * freedom that a Gam(a_a, b_a) precision makes of it — or (shared, hybrid) the Cholesky factor of
   * the score covariance s²·ΦΣΦᵀ given τ; O(K·w²).
   */
  private scoreMoments(context: Float64Array): void {
    const views = this.views!;
    const k = this.arms;
    const s = this.exploration;
    if (this.features.layout === 'disjoint') {
      for (let a = 0; a < k; a++) {
        const view = views[a];
        const shape = view.precisionShape;
        this.precisionShapes[a] = shape;
        this.scoreMeans[a] = dot(view.mean, context, this.dim);
        const variance = Math.max(0, symmetricQuadraticForm(view.covariance, this.dim, context));
        this.scoreSds[a] = s * Math.sqrt(shape === Infinity ? variance : (variance * view.precisionRate) / shape);
      }
      return;
    }
    const width = this.features.width;
    const { mean, covariance } = views[0];
    this.precisionShapes[0] = views[0].precisionShape;
    this.precisionRates[0] = views[0].precisionRate;
    const phi = this.phi;
    const sigmaPhi = this.covariancePhi;
    for (let a = 0; a < k; a++) {
      this.features.write(context, a, phi, a * width);
      this.scoreMeans[a] = dot(mean, phi, width, 0, a * width);
      symmetricGemv(covariance, width, phi, sigmaPhi, a * width);
      for (let b = 0; b <= a; b++) this.scoreCovariance[a * k + b] = s * s * dot(sigmaPhi, phi, width, 0, b * width);
    }
    cholesky(this.scoreCovariance, k, this.scoreFactor, SCORE_COVARIANCE);
  }

  /** A draw of disjoint arm a's score S_a = m_a + scale_a·z, z normal or Student-t (see {@link scoreMoments}). */
  private drawScore(a: number): number {
    const shape = this.precisionShapes[a];
    return this.scoreMeans[a] + this.scoreSds[a] * (shape === Infinity ? this.rng.normal() : this.rng.studentT(2 * shape));
  }

  /** P(S_b ≤ t) of disjoint arm b with a positive scale. */
  private scoreCdf(b: number, t: number): number {
    const shape = this.precisionShapes[b];
    const x = (t - this.scoreMeans[b]) / this.scoreSds[b];
    return shape === Infinity ? normalCdf(x) : studentTCdf(x, 2 * shape);
  }

  /**
   * In how many of `draws` joint draws of the disjoint arms' scores `arm` wins (ties to the first),
   * each draw stopping once another arm beats it. Exact, with fewer score draws: for the floor
   * L = m_a − 4·scale_a, an arm b with P(S_b ≤ L) = c_b ≥ 1 − 10⁻³ is drawn by inversion,
   * S_b = F_b⁻¹(u) with u uniform, without computing S_b: when S_a ≥ L and u ≤ c_b, S_b ≤ L ≤ S_a
   * and b loses; otherwise b beats a exactly when u > F_b(S_a). Far arms then cost a uniform a draw
   * instead of a normal or Student-t variate, and K − 1 cdfs a decision.
   */
  private chosenArmWins(arm: number, draws: number): number {
    const floor = this.scoreMeans[arm] - FLOOR_SCALES * this.scoreSds[arm];
    let near = 0;
    let far = 0;
    for (let b = 0; b < this.arms; b++) {
      if (b === arm) continue;
      const below = this.scoreSds[b] > 0 ? this.scoreCdf(b, floor) : 0;
      if (below >= 1 - FAR_TAIL) {
        this.farArms[far] = b;
        this.farBelow[far++] = below;
      } else this.nearArms[near++] = b;
    }
    let wins = 0;
    for (let s = 0; s < draws; s++) {
      const score = this.drawScore(arm);
      let won = true;
      for (let i = 0; i < near && won; i++) {
        const b = this.nearArms[i];
        const other = this.drawScore(b);
        won = other < score || (other === score && b > arm);
      }
      for (let i = 0; i < far && won; i++) {
        const u = this.rng.nextDouble();
        won = (score >= floor && u <= this.farBelow[i]) || u <= this.scoreCdf(this.farArms[i], score);
      }
      if (won) wins++;
    }
    return wins;
  }

  /** One joint draw of the K scores from {@link scoreMoments}' distribution into `scores`; returns the best arm (ties to the first). */
  private drawScores(scores: Float64Array): number {
    const k = this.arms;
    const shapes = this.precisionShapes;
    const rates = this.precisionRates;
    let best = 0;
    if (this.features.layout === 'disjoint') {
      for (let a = 0; a < k; a++) {
        scores[a] = this.drawScore(a);
        if (scores[a] > scores[best]) best = a;
      }
      return best;
    }
    const scale = shapes[0] === Infinity ? 1 : 1 / Math.sqrt(this.rng.gamma(shapes[0], rates[0]));
    const z = this.normals;
    const factor = this.scoreFactor;
    for (let a = 0; a < k; a++) {
      z[a] = this.rng.normal();
      let deviation = 0;
      for (let b = 0; b <= a; b++) deviation += factor[a * k + b] * z[b];
      scores[a] = this.scoreMeans[a] + scale * deviation;
      if (scores[a] > scores[best]) best = a;
    }
    return best;
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
