import { ConfigError } from '../core/config-error.js';
import type { ModelSnapshot } from '../core/model-snapshot.js';
import { optionChecks } from '../core/option-checks.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { dot } from '../linalg/dot.js';
import { gemv } from '../linalg/gemv.js';
import { identity } from '../linalg/identity.js';
import { shermanMorrisonUpdate } from '../linalg/sherman-morrison-update.js';
import { Rng } from '../rng/rng.js';
import { ArmFeatureMap, type ArmLayout } from './arm-layout.js';
import type { BanditDecision } from './bandit-decision.js';
import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { checkContext } from './check-context.js';
import { JsonFloat64Array } from './json-float64-array.js';

const FAMILY = 'bandit/lin-ucb';
const VERSION = 1;

/** Options of {@link LinUcbPolicy}. */
export interface LinUcbPolicyOptions {
  readonly arms: number;
  readonly dim: number;
  /** Exploration weight α of the confidence bonus (default 1). */
  readonly alpha?: number;
  /** `disjoint` (default, Algorithm 1), `shared` or `hybrid` (Algorithm 2's model): see {@link ArmLayout}. */
  readonly layout?: ArmLayout;
  /** K rows of m arm features z_a (shared and hybrid layouts). */
  readonly armFeatures?: readonly ArrayLike<number>[];
  /** Seeds the generator that breaks ties uniformly (default 0). */
  readonly seed?: number;
  /** Decision ids are `${idPrefix}-${n}`; default `u${seed}`. */
  readonly idPrefix?: string;
}

/**
 * LinUCB (Li, Chu, Langford & Schapire 2010). Disjoint (Algorithm 1): per arm A_a = I + Σ xxᵀ and
 * b_a = Σ r·x; the arm with the largest θ_aᵀx + α·√(xᵀA_a⁻¹x), θ_a = A_a⁻¹b_a, is played. Shared and
 * hybrid: one ridge regression over φ(x, a) (see {@link ArmLayout}), A = I + Σ φφᵀ, b = Σ r·φ, the arm
 * with the largest θᵀφ + α·√(φᵀA⁻¹φ) — for the hybrid φ this is the joint model whose block solution is
 * Algorithm 2. Ties are broken uniformly by a seeded generator; A⁻¹ is kept by Sherman–Morrison. The
 * choice is deterministic but for ties, so the propensity is exact: 1, or 1/(number of tied arms).
 */
export class LinUcbPolicy implements BanditPolicy {
  readonly name: string;
  readonly arms: number;
  readonly dim: number;
  readonly alpha: number;
  readonly idPrefix: string;
  readonly features: ArmFeatureMap;
  /** A⁻¹ of every model (one per arm if disjoint, else one), row-major w×w, w = φ's width, one after the other. */
  private readonly inverse: Float64Array;
  /** b of every model, one after the other. */
  private readonly b: Float64Array;
  private readonly phi: Float64Array;
  private readonly rng: Rng;
  private count = 0;
  private readonly theta: Float64Array;
  private readonly u: Float64Array;

  constructor(options: LinUcbPolicyOptions, restored?: { readonly inverse: Float64Array; readonly b: Float64Array; readonly rng: Rng; readonly decisions: number }) {
    this.arms = optionChecks.positiveInteger('arms', options.arms, 0);
    this.dim = optionChecks.positiveInteger('dim', options.dim, 0);
    this.alpha = optionChecks.nonNegative('alpha', options.alpha, 1);
    const seed = options.seed ?? 0;
    if (!Number.isSafeInteger(seed)) throw new ConfigError('seed must be a safe integer', { field: 'seed', value: seed });
    const rows = options.armFeatures ?? [];
    if (rows.length !== 0 && rows.length !== this.arms) throw new ConfigError(`armFeatures has ${rows.length} rows for ${this.arms} arms`, { field: 'armFeatures' });
    this.features = new ArmFeatureMap(options.layout ?? 'disjoint', this.arms, this.dim, Float64Array.from(rows.flatMap((row) => Array.from(row))));
    const w = this.features.width;
    const models = this.features.layout === 'disjoint' ? this.arms : 1;
    this.inverse = restored?.inverse ?? new Float64Array(models * w * w);
    if (restored === undefined) for (let i = 0; i < models; i++) this.inverse.set(identity(w), i * w * w);
    this.b = restored?.b ?? new Float64Array(models * w);
    this.phi = new Float64Array(w);
    this.rng = restored?.rng ?? Rng.fromSeed(seed);
    this.count = restored?.decisions ?? 0;
    this.idPrefix = options.idPrefix ?? `u${seed}`;
    this.theta = new Float64Array(w);
    this.u = new Float64Array(w);
    this.name = `LinUCB (alpha ${this.alpha})`;
  }

  get decisions(): number {
    return this.count;
  }

  /** θᵀφ(x, a) + α·√(φᵀA⁻¹φ) of every arm. */
  upperBounds(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const w = this.features.width;
    const scores = new Float64Array(this.arms);
    for (let a = 0; a < this.arms; a++) {
      const inverse = this.inverseOf(a);
      this.features.write(context, a, this.phi);
      gemv(inverse, w, w, this.b, this.theta, 1, 0, this.modelOf(a) * w);
      gemv(inverse, w, w, this.phi, this.u);
      scores[a] = dot(this.theta, this.phi, w) + this.alpha * Math.sqrt(Math.max(0, dot(this.phi, this.u, w)));
    }
    return scores;
  }

  /** The ridge estimate θ̂ᵀφ(x, a) = (A⁻¹b)ᵀφ(x, a) of every arm: the bounds without their width. */
  expectedRewards(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const w = this.features.width;
    const means = new Float64Array(this.arms);
    for (let a = 0; a < this.arms; a++) {
      this.features.write(context, a, this.phi);
      gemv(this.inverseOf(a), w, w, this.b, this.theta, 1, 0, this.modelOf(a) * w);
      means[a] = dot(this.theta, this.phi, w);
    }
    return means;
  }

  decide(context: Float64Array): BanditDecision {
    const scores = this.upperBounds(context);
    const best = Math.max(...scores);
    const tied = [];
    for (let a = 0; a < this.arms; a++) if (scores[a] === best) tied.push(a);
    const arm = tied.length === 1 ? tied[0] : tied[Math.min(tied.length - 1, Math.floor(this.rng.nextDouble() * tied.length))];
    return { decisionId: `${this.idPrefix}-${++this.count}`, context: JsonFloat64Array.from(context), arm, propensity: 1 / tied.length, propensityMethod: 'exact', scores: JsonFloat64Array.from(scores) };
  }

  /** 1/(tied arms) on the arms of the largest bound, 0 elsewhere. */
  actionProbabilities(context: Float64Array): Float64Array {
    const scores = this.upperBounds(context);
    const best = Math.max(...scores);
    const tied = scores.reduce((n, s) => n + (s === best ? 1 : 0), 0);
    return scores.map((s) => (s === best ? 1 / tied : 0));
  }

  learn(played: PlayedArm, reward: number): void {
    checkContext(played.context, this.dim);
    if (!Number.isInteger(played.arm) || played.arm < 0 || played.arm >= this.arms) throw new ConfigError(`arm must be an integer in [0, ${this.arms})`, { field: 'arm', value: played.arm });
    if (!Number.isFinite(reward)) throw new ConfigError('reward must be finite', { field: 'reward', value: reward });
    const w = this.features.width;
    const inverse = this.inverseOf(played.arm);
    this.features.write(played.context, played.arm, this.phi);
    gemv(inverse, w, w, this.phi, this.u);
    shermanMorrisonUpdate(inverse, w, this.u, 1, dot(this.phi, this.u, w));
    const offset = this.modelOf(played.arm) * w;
    for (let j = 0; j < w; j++) this.b[offset + j] += reward * this.phi[j];
  }

  /** Index of the model that scores `arm`: the arm (disjoint) or 0. */
  private modelOf(arm: number): number {
    return this.features.layout === 'disjoint' ? arm : 0;
  }

  /** A⁻¹ of the model that scores `arm`. */
  private inverseOf(arm: number): Float64Array {
    const size = this.features.width * this.features.width;
    const i = this.modelOf(arm);
    return this.inverse.subarray(i * size, (i + 1) * size);
  }

  snapshot(): ModelSnapshot {
    return {
      family: FAMILY, version: VERSION, dim: this.dim,
      header: { arms: this.arms, alpha: this.alpha, layout: this.features.layout, idPrefix: this.idPrefix, decisions: this.count, rng: Array.from(this.rng.getState()) },
      arrays: { inverse: this.inverse.slice(), b: this.b.slice(), armFeatures: this.features.armFeatures.slice() },
    };
  }

  static restore(snapshot: ModelSnapshot): LinUcbPolicy {
    if (snapshot.family !== FAMILY || snapshot.version !== VERSION) throw new SnapshotError(`not a ${FAMILY} v${VERSION} snapshot: ${snapshot.family} v${snapshot.version}`);
    const h = snapshot.header as { arms: number; alpha: number; layout: ArmLayout; idPrefix: string; decisions: number; rng: number[] };
    const m = snapshot.arrays.armFeatures.length / h.arms;
    const armFeatures = h.layout === 'disjoint' ? undefined : Array.from({ length: h.arms }, (_, a) => snapshot.arrays.armFeatures.subarray(a * m, a * m + m));
    return new LinUcbPolicy(
      { arms: h.arms, dim: snapshot.dim, alpha: h.alpha, layout: h.layout, armFeatures, idPrefix: h.idPrefix },
      { inverse: snapshot.arrays.inverse.slice(), b: snapshot.arrays.b.slice(), rng: Rng.fromState(Uint32Array.from(h.rng)), decisions: h.decisions },
    );
  }
}
