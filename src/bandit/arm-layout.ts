import { ConfigError } from '../core/config-error.js';

/**
 * How a Thompson policy's posteriors cover the arms (Li et al. 2010, §3.1–3.2):
 * - `disjoint`: one model per arm over the context x; arm a scores θ_a·x.
 * - `shared`: one model over φ(x, a) = z_a ⊗ x (entry i·d + j is z_a[i]·x[j]), z_a the arm's
 *   features: arms with similar features share what is learned about them.
 * - `hybrid`: one model over φ(x, a) = [z_a ⊗ x, e_a ⊗ x], the shared block plus a block of d
 *   weights per arm (e_a the a-th unit vector of K): LinUCB's hybrid model zᵀβ + xᵀθ_a, with β and
 *   every θ_a in one joint posterior.
 */
export type ArmLayout = 'disjoint' | 'shared' | 'hybrid';

/** The feature map φ(x, a) of a layout: its width and how to write it. */
export class ArmFeatureMap {
  /** Width of φ(x, a): d (disjoint), m·d (shared) or m·d + K·d (hybrid). */
  readonly width: number;
  private readonly m: number;

  constructor(readonly layout: ArmLayout, readonly arms: number, readonly dim: number, readonly armFeatures: Float64Array) {
    if (layout !== 'disjoint' && layout !== 'shared' && layout !== 'hybrid') throw new ConfigError(`layout must be disjoint, shared or hybrid, got ${String(layout)}`, { field: 'layout', value: String(layout) });
    this.m = arms === 0 ? 0 : armFeatures.length / arms;
    if (layout === 'disjoint') {
      if (armFeatures.length !== 0) throw new ConfigError('armFeatures are for the shared and hybrid layouts', { field: 'armFeatures' });
    } else if (armFeatures.length === 0 || !Number.isInteger(this.m)) {
      throw new ConfigError(`the ${layout} layout needs armFeatures: one row of the same length per arm (${arms} arms)`, { field: 'armFeatures' });
    } else if (!armFeatures.every(Number.isFinite)) {
      throw new ConfigError('armFeatures must be finite', { field: 'armFeatures' });
    }
    this.width = layout === 'disjoint' ? dim : this.m * dim + (layout === 'hybrid' ? arms * dim : 0);
  }

  /** Writes φ(x, arm) into `out[offset .. offset + width)`. */
  write(x: Float64Array, arm: number, out: Float64Array, offset = 0): void {
    const { dim, m } = this;
    if (this.layout === 'disjoint') {
      for (let j = 0; j < dim; j++) out[offset + j] = x[j];
      return;
    }
    for (let i = 0; i < m; i++) {
      const z = this.armFeatures[arm * m + i];
      for (let j = 0; j < dim; j++) out[offset + i * dim + j] = z * x[j];
    }
    if (this.layout === 'shared') return;
    const perArm = offset + m * dim;
    out.fill(0, perArm, perArm + this.arms * dim);
    for (let j = 0; j < dim; j++) out[perArm + arm * dim + j] = x[j];
  }
}
