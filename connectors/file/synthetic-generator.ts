import { ConfigError } from '../../src/core/config-error.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { Rng } from '../../src/rng/rng.js';

/** Options of {@link SyntheticGenerator}. */
export interface SyntheticOptions {
  /** `logistic` (0/1 labels), `linear` (real labels), `gp` (real labels, a smooth non-linear truth). */
  readonly kind: 'logistic' | 'linear' | 'gp';
  /** Features per record; for logistic and linear data feature 1 is a constant bias column. */
  readonly dim: number;
  readonly seed: number;
  /** Label noise sd for linear and gp data (default 0.5 and 0.1). */
  readonly noise?: number;
  /** Random-walk drift of the truth: every `every` records each truth coefficient moves by N(0, scale²). */
  readonly drift?: { readonly every: number; readonly scale: number };
  /** GP lengthscale (default 1) and random-feature count (default 100). */
  readonly lengthscale?: number;
  readonly basis?: number;
}

/**
 * Seeded labelled data with a known truth. Logistic: P(y = 1) = σ(wᵀx); linear: y = wᵀx + ε;
 * with x₁ = 1 and the other features N(0, 1), w ~ N(0, 9/d). GP: y = f(x) + ε with f a draw from a
 * GP with squared-exponential kernel, approximated by `basis` random Fourier features
 * (Rahimi & Recht 2007), x ~ N(0, I). The same seed gives the same records; with `drift` the truth
 * follows a seeded random walk.
 */
export class SyntheticGenerator {
  /** The current truth: the weights (logistic, linear) or the random-feature amplitudes (gp). */
  readonly truth: Float64Array;
  /** Records generated so far. */
  generated = 0;
  private readonly rng: Rng;
  private readonly driftRng: Rng;
  private readonly noise: number;
  private readonly frequencies: Float64Array;
  private readonly phases: Float64Array;

  constructor(readonly options: SyntheticOptions) {
    const { kind, dim, seed } = options;
    if (kind !== 'logistic' && kind !== 'linear' && kind !== 'gp') throw new ConfigError('synthetic kind must be logistic, linear or gp', { field: 'kind', value: kind });
    optionChecks.positiveInteger('dim', dim, Number.NaN);
    if (!Number.isSafeInteger(seed)) throw new ConfigError('seed must be a safe integer', { field: 'seed', value: seed });
    this.noise = optionChecks.positive('noise', options.noise, kind === 'gp' ? 0.1 : 0.5);
    if (options.drift !== undefined) {
      optionChecks.positiveInteger('drift.every', options.drift.every, Number.NaN);
      optionChecks.positive('drift.scale', options.drift.scale, Number.NaN);
    }
    const truthRng = Rng.fromSeed(seed);
    this.rng = truthRng.split();
    this.driftRng = truthRng.split();
    if (kind === 'gp') {
      const basis = optionChecks.positiveInteger('basis', options.basis, 100);
      const lengthscale = optionChecks.positive('lengthscale', options.lengthscale, 1);
      this.truth = Float64Array.from({ length: basis }, () => truthRng.normal());
      this.frequencies = Float64Array.from({ length: basis * dim }, () => truthRng.normal() / lengthscale);
      this.phases = Float64Array.from({ length: basis }, () => 2 * Math.PI * truthRng.nextDouble());
    } else {
      this.truth = Float64Array.from({ length: dim }, () => (3 * truthRng.normal()) / Math.sqrt(dim));
      this.frequencies = new Float64Array(0);
      this.phases = new Float64Array(0);
    }
  }

  /** The noise-free truth at x: wᵀx (logistic: the logit) or f(x). */
  signal(x: Float64Array): number {
    if (this.options.kind !== 'gp') {
      let s = 0;
      for (let j = 0; j < x.length; j++) s += this.truth[j] * x[j];
      return s;
    }
    const { dim } = this.options;
    const basis = this.truth.length;
    let f = 0;
    for (let m = 0; m < basis; m++) {
      let arg = this.phases[m];
      for (let j = 0; j < dim; j++) arg += this.frequencies[m * dim + j] * x[j];
      f += this.truth[m] * Math.cos(arg);
    }
    return f * Math.sqrt(2 / basis);
  }

  /** Fills `x` with the next record's features and returns its label. */
  next(x: Float64Array): number {
    const { kind, dim, drift } = this.options;
    if (drift !== undefined && this.generated > 0 && this.generated % drift.every === 0) {
      for (let j = 0; j < this.truth.length; j++) this.truth[j] += drift.scale * this.driftRng.normal();
    }
    this.generated++;
    for (let j = 0; j < dim; j++) x[j] = j === 0 && kind !== 'gp' ? 1 : this.rng.normal();
    const s = this.signal(x);
    if (kind === 'logistic') return this.rng.nextDouble() < 1 / (1 + Math.exp(-s)) ? 1 : 0;
    return s + this.noise * this.rng.normal();
  }
}
