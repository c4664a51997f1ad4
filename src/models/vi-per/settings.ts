import { ConfigError } from '../../core/config-error.js';
import { optionChecks } from '../../core/option-checks.js';
import type { BernoulliLogitMethod } from '../../likelihoods/bernoulli-logit.js';
import type { CovarianceForm, RefitMethod, StreamingMode, SviOptimizer, ViPerOptions } from './options.js';

/** Settings fixed at creation (validated by {@link resolveViPerSettings}). */
export interface ViPerSettings {
  readonly covariance: CovarianceForm;
  readonly method: BernoulliLogitMethod;
  /** VI-PER series parameter (2l − 1 terms). */
  readonly l: number;
  /** Gauss–Hermite nodes of the objective (method `gauss-hermite`). */
  readonly points: number;
  /** Monte Carlo draws (method `monte-carlo`) and their seed. */
  readonly samples: number;
  readonly seed: number;
  /** L-BFGS: relative objective change that stops, and the iteration cap. */
  readonly tol: number;
  readonly maxIter: number;
  readonly streaming: StreamingMode;
  /** `sda`: the most recent records kept and refitted with every update (0: none, plain streaming VB; always 0 under `svi`). */
  readonly replay: number;
  /** SVI: Adam learning rate (`adam` only), steps per batch, and the effective data size N (0: the records seen so far). */
  readonly learningRate: number;
  readonly stepsPerBatch: number;
  readonly dataSize: number;
  /** SVI optimiser: `natural` (natural-gradient SVI, step ρ_t = (1 + t/τ)^−κ) or `adam` (Adam at `learningRate`). */
  readonly optimizer: SviOptimizer;
  readonly tau: number;
  readonly kappa: number;
  /** `sda` after the first update: natural-gradient refits with site folds, or L-BFGS refits with fit folds. */
  readonly refit: RefitMethod;
  /** `natural` refits: the window is refitted when the records seen cross a point of the grid (1 + refitFraction)^k (0: every update). */
  readonly refitFraction: number;
}

/** Validated settings from {@link ViPerOptions}, with the family's method and covariance as defaults; a bad value throws `ConfigError` naming it. */
export function resolveViPerSettings(options: ViPerOptions, method: BernoulliLogitMethod, covariance: CovarianceForm): ViPerSettings {
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new ConfigError('must be a safe integer', { field: 'seed', value: seed });
  const dataSize = optionChecks.nonNegative('dataSize', options.dataSize, 0);
  const points = optionChecks.positiveInteger('points', options.points, 100);
  const streaming = optionChecks.oneOf('streaming', options.streaming, 'sda', ['sda', 'svi'] as const);
  if (points > 360) throw new ConfigError('must be at most 360', { field: 'points', value: points });
  const form = optionChecks.oneOf('covariance', options.covariance, covariance, ['full', 'diagonal'] as const);
  const refit = optionChecks.oneOf('refit', options.refit, form === 'full' ? 'natural' : 'lbfgs', ['natural', 'lbfgs'] as const);
  if (refit === 'natural' && form === 'diagonal') throw new ConfigError('`natural` needs a full covariance (a diagonal q refits by L-BFGS): leave it out or use `lbfgs`', { field: 'refit', value: refit });
  return {
    covariance: form,
    method: optionChecks.oneOf('method', options.method, method, ['viper', 'gauss-hermite', 'monte-carlo', 'jj'] as const),
    l: optionChecks.positiveInteger('l', options.l, 12),
    points,
    samples: optionChecks.positiveInteger('samples', options.samples, 1000),
    seed,
    tol: optionChecks.positive('tol', options.tol, 1e-12),
    maxIter: optionChecks.positiveInteger('maxIter', options.maxIter, 1000),
    streaming,
    replay: replay(options.replay, streaming),
    learningRate: optionChecks.positive('learningRate', options.learningRate, 0.05),
    stepsPerBatch: optionChecks.positiveInteger('stepsPerBatch', options.stepsPerBatch, 1),
    dataSize,
    optimizer: optionChecks.oneOf('optimizer', options.optimizer, 'natural', ['natural', 'adam'] as const),
    tau: optionChecks.positive('tau', options.tau, 1),
    kappa: kappa(options.kappa),
    refit,
    refitFraction: optionChecks.nonNegative('refitFraction', options.refitFraction, 0.5),
  };
}

/** The default `replay` of `sda`: with `refit` `lbfgs` updates of 100 records then run at ≈ 1,000 (`vi-gh`) to 2,000 (`vi-per`) records/s for d ≤ 10, against 12,000–28,000 with none; with `natural` updates of 256 at ≈ 26,000–29,000 once the replay has filled (docs/guide.md). */
const DEFAULT_REPLAY = 2000;

/** `replay`: a non-negative safe integer under `sda` (default {@link DEFAULT_REPLAY}); under `svi` only 0 or absent, as SVI keeps no records. */
function replay(value: unknown, streaming: StreamingMode): number {
  if (streaming === 'svi') {
    if (value !== undefined && value !== 0) throw new ConfigError('applies to streaming `sda` only: leave it out (or 0) with `svi`', { field: 'replay', value });
    return 0;
  }
  const r = value ?? DEFAULT_REPLAY;
  if (typeof r !== 'number' || !Number.isSafeInteger(r) || r < 0) throw new ConfigError('must be a non-negative integer', { field: 'replay', value: r });
  return r;
}

function kappa(value: unknown): number {
  const k = value ?? 1;
  if (typeof k !== 'number' || !(k > 0.5 && k <= 1)) throw new ConfigError('must be a number in (0.5, 1]', { field: 'kappa', value: k });
  return k;
}
