import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { completeGram } from './complete-gram.js';
import type { DirectState } from './state.js';

/** Layout version of the `direct` snapshot. */
export const DIRECT_SNAPSHOT_VERSION = 2;

/** Snapshot of the grid, statistics, logits, mixture parameters, feature map and settings. */
export function encodeDirect(family: string, state: DirectState): ModelSnapshot {
  const { grid, stats, features, settings } = state;
  completeGram(stats);
  const arrays: { [name: string]: Float64Array } = {
    support: grid.support.slice(), logPrior: grid.logPrior.slice(), noiseSupport: grid.noiseSupport.slice(), logNoisePrior: grid.logNoisePrior.slice(),
    gram: stats.gram.slice(), phiTy: stats.phiTy.slice(), scalars: Float64Array.of(stats.yty, stats.n, stats.records, state.sinceFit),
    logits: state.logits.slice(), mixture: state.mixture.slice(),
  };
  if (features !== undefined) {
    arrays.rffOmega = features.omega.slice();
    arrays.rffLengthscales = features.lengthscales.slice();
  }
  return {
    family, version: DIRECT_SNAPSHOT_VERSION, dim: state.dim,
    header: { b: grid.b, mbar: grid.mbar, K: grid.K, stale: state.stale, settings: { ...settings }, rffCount: features === undefined ? null : features.count },
    arrays,
  };
}

function malformed(field: string, value: unknown): never {
  throw new SnapshotError('snapshot header is malformed', { field, value });
}

function positive(value: unknown, field: string): number {
  return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : malformed(field, value);
}

function integer(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SnapshotError('snapshot header is malformed', { field, value });
  return value;
}

/** Rebuilds the state from {@link encodeDirect}'s snapshot, refusing foreign or malformed ones. */
export function decodeDirect(family: string, snapshot: ModelSnapshot): DirectState {
  const h = snapshot.header as { b?: unknown; mbar?: unknown; K?: unknown; stale?: unknown; settings?: { [k: string]: unknown }; rffCount?: unknown };
  const b = integer(h.b, 'b');
  const mbar = integer(h.mbar, 'mbar');
  const K = integer(h.K, 'K');
  const s = h.settings ?? {};
  const settings = {
    restarts: integer(s.restarts, 'settings.restarts'), seed: integer(s.seed, 'settings.seed'), maxIter: integer(s.maxIter, 'settings.maxIter'),
    refitEvery: integer(s.refitEvery, 'settings.refitEvery'), caviSweeps: integer(s.caviSweeps, 'settings.caviSweeps'),
    components: integer(s.components, 'settings.components'), mixtureSteps: integer(s.mixtureSteps, 'settings.mixtureSteps'),
    mixtureLearningRate: positive(s.mixtureLearningRate, 'settings.mixtureLearningRate'),
    mixtureEntropy: s.mixtureEntropy === 'bound' || s.mixtureEntropy === 'stochastic' ? (s.mixtureEntropy as 'bound' | 'stochastic') : malformed('settings.mixtureEntropy', s.mixtureEntropy),
    entropySamples: integer(s.entropySamples, 'settings.entropySamples'),
  };
  if (settings.components < 1) malformed('settings.components', settings.components);
  if (typeof h.stale !== 'boolean') throw new SnapshotError('snapshot header is malformed', { field: 'stale', value: h.stale });
  const rffCount = h.rffCount === null ? undefined : integer(h.rffCount, 'rffCount');
  const d = snapshot.dim;
  const lengths: { [name: string]: number } = {
    support: b * mbar, logPrior: b * mbar, noiseSupport: K, logNoisePrior: K, gram: b * b, phiTy: b, scalars: 4,
    logits: b * mbar + K, mixture: settings.components === 1 ? 0 : settings.components * (b * mbar + 1) + b * mbar + K,
  };
  if (rffCount !== undefined) {
    if (2 * rffCount !== b) throw new SnapshotError(`feature map gives ${2 * rffCount} features, the grid has ${b}`, { field: 'rffCount', value: rffCount });
    lengths.rffOmega = d * rffCount;
    lengths.rffLengthscales = d;
  } else if (d !== b) {
    throw new SnapshotError(`snapshot dimension ${d} differs from its ${b} weights`, { field: 'dim', value: d });
  }
  const a = checkSnapshot(snapshot, family, DIRECT_SNAPSHOT_VERSION, lengths);
  const features = rffCount === undefined ? undefined : new RandomFourierFeatures(d, rffCount, a.rffOmega.slice(), a.rffLengthscales.slice());
  return {
    dim: d, features, settings,
    grid: { b, mbar, K, support: a.support.slice(), logPrior: a.logPrior.slice(), noiseSupport: a.noiseSupport.slice(), logNoisePrior: a.logNoisePrior.slice() },
    stats: { b, gram: a.gram.slice(), phiTy: a.phiTy.slice(), yty: a.scalars[0], n: a.scalars[1], records: a.scalars[2], complete: true },
    logits: a.logits.slice(), mixture: a.mixture.slice(), stale: h.stale, sinceFit: a.scalars[3],
  };
}
