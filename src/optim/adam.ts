import type { Restorable } from '../core/restorable.js';

/** Options of {@link Adam}. */
export interface AdamOptions {
  readonly learningRate?: number;
  readonly beta1?: number;
  readonly beta2?: number;
  readonly epsilon?: number;
}

/**
 * Adam (Kingma & Ba 2015) over a flat parameter vector, minimising: `step(params, gradient)` moves
 * params against the gradient with bias-corrected first and second moments. The moments and the
 * step count are plain arrays/numbers so a model can snapshot and restore them (`state()`,
 * `Adam.fromState`) and resume bit for bit.
 */
export class Adam implements Restorable<Adam> {
  readonly m: Float64Array;
  readonly v: Float64Array;
  t = 0;
  readonly learningRate: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly epsilon: number;

  constructor(size: number, options: AdamOptions = {}) {
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
    this.learningRate = options.learningRate ?? 1e-3;
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.epsilon = options.epsilon ?? 1e-8;
  }

  /** One update of `params` (in place) from `gradient`; `learningRate` overrides the constructor's for this step. */
  step(params: Float64Array, gradient: Float64Array, learningRate = this.learningRate): void {
    this.t += 1;
    const { beta1, beta2, epsilon } = this;
    const correction1 = 1 - beta1 ** this.t;
    const correction2 = 1 - beta2 ** this.t;
    for (let i = 0; i < params.length; i++) {
      const g = gradient[i];
      this.m[i] = beta1 * this.m[i] + (1 - beta1) * g;
      this.v[i] = beta2 * this.v[i] + (1 - beta2) * g * g;
      params[i] -= (learningRate * (this.m[i] / correction1)) / (Math.sqrt(this.v[i] / correction2) + epsilon);
    }
  }

  /** An independent optimiser with the same settings, moments and step count. */
  clone(): Adam {
    const copy = new Adam(this.m.length, this);
    copy.copyFrom(this);
    return copy;
  }

  /** Overwrites the moments and step count with `other`'s (same size and settings). */
  copyFrom(other: Adam): void {
    this.m.set(other.m);
    this.v.set(other.v);
    this.t = other.t;
  }

  /** The optimiser state as one array: [t, lr, β1, β2, ε, m…, v…]. */
  state(): Float64Array {
    const out = new Float64Array(5 + 2 * this.m.length);
    out.set([this.t, this.learningRate, this.beta1, this.beta2, this.epsilon]);
    out.set(this.m, 5);
    out.set(this.v, 5 + this.m.length);
    return out;
  }

  /** Rebuilds an optimiser from {@link Adam.state}. */
  static fromState(state: Float64Array): Adam {
    const size = (state.length - 5) / 2;
    if (!Number.isInteger(size) || size < 0) throw new RangeError(`Adam state has ${state.length} values; expected 5 + 2·size`);
    const adam = new Adam(size, { learningRate: state[1], beta1: state[2], beta2: state[3], epsilon: state[4] });
    adam.t = state[0];
    adam.m.set(state.subarray(5, 5 + size));
    adam.v.set(state.subarray(5 + size));
    return adam;
  }
}
