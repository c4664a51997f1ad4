import { ConfigError } from '../core/config-error.js';
import type { ModelSnapshot } from '../core/model-snapshot.js';
import { optionChecks } from '../core/option-checks.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { dot } from '../linalg/dot.js';
import { gemv } from '../linalg/gemv.js';
import { identity } from '../linalg/identity.js';
import { shermanMorrisonUpdate } from '../linalg/sherman-morrison-update.js';
import { Rng } from '../rng/rng.js';
import type { BanditDecision } from './bandit-decision.js';
import type { BanditPolicy, PlayedArm } from './bandit-policy.js';
import { checkContext } from './check-context.js';

const FAMILY = 'bandit/lin-ucb';
const VERSION = 1;

/** Options of {@link LinUcbPolicy}. */
export interface LinUcbPolicyOptions {
  readonly arms: number;
  readonly dim: number;
  /** Exploration weight α of the confidence bonus (default 1). */
  readonly alpha?: number;
  /** Seeds the generator that breaks ties uniformly (default 0). */
  readonly seed?: number;
  /** Decision ids are `${idPrefix}-${n}`; default `u${seed}`. */
  readonly idPrefix?: string;
}

/**
 * LinUCB with disjoint linear models (Li, Chu, Langford & Schapire 2010, Algorithm 1): per arm
 * A_a = I + Σ xxᵀ and b_a = Σ r·x; the arm with the largest θ_aᵀx + α·√(xᵀA_a⁻¹x), θ_a = A_a⁻¹b_a, is
 * played, ties broken uniformly by a seeded generator. A_a⁻¹ is kept by Sherman–Morrison. The choice
 * is deterministic but for ties, so the propensity is exact: 1, or 1/(number of tied arms).
 */
export class LinUcbPolicy implements BanditPolicy {
  readonly name: string;
  readonly arms: number;
  readonly dim: number;
  readonly alpha: number;
  readonly idPrefix: string;
  /** A_a⁻¹ of every arm, row-major d×d, arm after arm. */
  private readonly inverse: Float64Array;
  /** b_a of every arm, arm after arm. */
  private readonly b: Float64Array;
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
    const d = this.dim;
    this.inverse = restored?.inverse ?? new Float64Array(this.arms * d * d);
    if (restored === undefined) for (let a = 0; a < this.arms; a++) this.inverse.set(identity(d), a * d * d);
    this.b = restored?.b ?? new Float64Array(this.arms * d);
    this.rng = restored?.rng ?? Rng.fromSeed(seed);
    this.count = restored?.decisions ?? 0;
    this.idPrefix = options.idPrefix ?? `u${seed}`;
    this.theta = new Float64Array(d);
    this.u = new Float64Array(d);
    this.name = `LinUCB (alpha ${this.alpha})`;
  }

  get decisions(): number {
    return this.count;
  }

  /** θ_aᵀx + α·√(xᵀA_a⁻¹x) of every arm. */
  upperBounds(context: Float64Array): Float64Array {
    checkContext(context, this.dim);
    const d = this.dim;
    const scores = new Float64Array(this.arms);
    for (let a = 0; a < this.arms; a++) {
      const inverse = this.inverse.subarray(a * d * d, (a + 1) * d * d);
      gemv(inverse, d, d, this.b, this.theta, 1, 0, a * d);
      gemv(inverse, d, d, context, this.u);
      scores[a] = dot(this.theta, context, d) + this.alpha * Math.sqrt(Math.max(0, dot(context, this.u, d)));
    }
    return scores;
  }

  decide(context: Float64Array): BanditDecision {
    const scores = this.upperBounds(context);
    const best = Math.max(...scores);
    const tied = [];
    for (let a = 0; a < this.arms; a++) if (scores[a] === best) tied.push(a);
    const arm = tied.length === 1 ? tied[0] : tied[Math.min(tied.length - 1, Math.floor(this.rng.nextDouble() * tied.length))];
    return { decisionId: `${this.idPrefix}-${++this.count}`, context: context.slice(), arm, propensity: 1 / tied.length, propensityMethod: 'exact', scores };
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
    const d = this.dim;
    const x = played.context;
    const inverse = this.inverse.subarray(played.arm * d * d, (played.arm + 1) * d * d);
    gemv(inverse, d, d, x, this.u);
    shermanMorrisonUpdate(inverse, d, this.u, 1, dot(x, this.u, d));
    for (let j = 0; j < d; j++) this.b[played.arm * d + j] += reward * x[j];
  }

  snapshot(): ModelSnapshot {
    return {
      family: FAMILY, version: VERSION, dim: this.dim,
      header: { arms: this.arms, alpha: this.alpha, idPrefix: this.idPrefix, decisions: this.count, rng: Array.from(this.rng.getState()) },
      arrays: { inverse: this.inverse.slice(), b: this.b.slice() },
    };
  }

  static restore(snapshot: ModelSnapshot): LinUcbPolicy {
    if (snapshot.family !== FAMILY || snapshot.version !== VERSION) throw new SnapshotError(`not a ${FAMILY} v${VERSION} snapshot: ${snapshot.family} v${snapshot.version}`);
    const h = snapshot.header as { arms: number; alpha: number; idPrefix: string; decisions: number; rng: number[] };
    return new LinUcbPolicy(
      { arms: h.arms, dim: snapshot.dim, alpha: h.alpha, idPrefix: h.idPrefix },
      { inverse: snapshot.arrays.inverse.slice(), b: snapshot.arrays.b.slice(), rng: Rng.fromState(Uint32Array.from(h.rng)), decisions: h.decisions },
    );
  }
}
