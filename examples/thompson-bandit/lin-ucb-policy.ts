import { dot, gemv, identity, shermanMorrisonUpdate } from 'vbstream/linalg';
import type { BanditChoice, BanditPolicy } from './bandit-policy.js';

/**
 * LinUCB with disjoint linear models (Li, Chu, Langford & Schapire 2010, Algorithm 1): per arm
 * A = I + Σ xxᵀ and b = Σ r·x; the arm with the largest θᵀx + α·√(xᵀA⁻¹x), θ = A⁻¹b, is played
 * (ties to the first). A⁻¹ is kept by Sherman–Morrison. Deterministic, so the propensity is 1.
 */
export class LinUcbPolicy implements BanditPolicy {
  readonly name: string;
  private readonly inverse: Float64Array[];
  private readonly b: Float64Array[];
  private readonly theta: Float64Array;
  private readonly u: Float64Array;

  constructor(readonly arms: number, readonly dim: number, private readonly alpha: number) {
    this.inverse = Array.from({ length: arms }, () => identity(dim));
    this.b = Array.from({ length: arms }, () => new Float64Array(dim));
    this.theta = new Float64Array(dim);
    this.u = new Float64Array(dim);
    this.name = `LinUCB (alpha ${alpha})`;
  }

  choose(x: Float64Array): BanditChoice {
    const scores = new Float64Array(this.arms);
    let arm = 0;
    for (let a = 0; a < this.arms; a++) {
      gemv(this.inverse[a], this.dim, this.dim, this.b[a], this.theta);
      gemv(this.inverse[a], this.dim, this.dim, x, this.u);
      scores[a] = dot(this.theta, x, this.dim) + this.alpha * Math.sqrt(Math.max(0, dot(x, this.u, this.dim)));
      if (scores[a] > scores[arm]) arm = a;
    }
    return { arm, scores, propensity: 1 };
  }

  learn(x: Float64Array, arm: number, reward: number): void {
    gemv(this.inverse[arm], this.dim, this.dim, x, this.u);
    shermanMorrisonUpdate(this.inverse[arm], this.dim, this.u, 1, dot(x, this.u, this.dim));
    for (let j = 0; j < this.dim; j++) this.b[arm][j] += reward * x[j];
  }
}
