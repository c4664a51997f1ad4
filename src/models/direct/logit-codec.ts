import { checkSnapshot } from '../../core/check-snapshot.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { Adam } from '../../optim/adam.js';
import type { DirectGrid } from './state.js';

/** Layout version of the `direct-logit` snapshot. */
export const DIRECT_LOGIT_SNAPSHOT_VERSION = 1;

/** Everything a `direct-logit` model is. */
export interface DirectLogitState {
  readonly dim: number;
  readonly grid: DirectGrid;
  readonly features: RandomFourierFeatures | undefined;
  readonly settings: { readonly learningRate: number; readonly stepsPerBatch: number; readonly dataSize: number };
  readonly logits: Float64Array;
  adam: Adam;
  records: number;
}

/** Snapshot of the grid, logits, Adam state, feature map and settings. */
export function encodeDirectLogit(state: DirectLogitState): ModelSnapshot {
  const arrays: { [name: string]: Float64Array } = {
    support: state.grid.support.slice(), logPrior: state.grid.logPrior.slice(), logits: state.logits.slice(), adam: state.adam.state(), scalars: Float64Array.of(state.records),
  };
  if (state.features !== undefined) {
    arrays.rffOmega = state.features.omega.slice();
    arrays.rffLengthscales = state.features.lengthscales.slice();
  }
  return {
    family: 'direct-logit', version: DIRECT_LOGIT_SNAPSHOT_VERSION, dim: state.dim,
    header: { b: state.grid.b, mbar: state.grid.mbar, settings: { ...state.settings }, rffCount: state.features === undefined ? null : state.features.count },
    arrays,
  };
}

function count(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SnapshotError('snapshot header is malformed', { field, value });
  return value;
}

/** Rebuilds the state from {@link encodeDirectLogit}'s snapshot, refusing foreign or malformed ones. */
export function decodeDirectLogit(snapshot: ModelSnapshot): DirectLogitState {
  const h = snapshot.header as { b?: unknown; mbar?: unknown; settings?: { [k: string]: unknown }; rffCount?: unknown };
  const b = count(h.b, 'b');
  const mbar = count(h.mbar, 'mbar');
  const s = h.settings ?? {};
  if (typeof s.learningRate !== 'number') throw new SnapshotError('snapshot header is malformed', { field: 'settings.learningRate', value: s.learningRate });
  const settings = { learningRate: s.learningRate, stepsPerBatch: count(s.stepsPerBatch, 'settings.stepsPerBatch'), dataSize: count(s.dataSize, 'settings.dataSize') };
  const rffCount = h.rffCount === null ? undefined : count(h.rffCount, 'rffCount');
  const d = snapshot.dim;
  const lengths: { [name: string]: number } = { support: b * mbar, logPrior: b * mbar, logits: b * mbar, adam: 5 + 2 * b * mbar, scalars: 1 };
  if (rffCount !== undefined) {
    if (2 * rffCount !== b) throw new SnapshotError(`feature map gives ${2 * rffCount} features, the grid has ${b}`, { field: 'rffCount', value: rffCount });
    lengths.rffOmega = d * rffCount;
    lengths.rffLengthscales = d;
  } else if (d !== b) {
    throw new SnapshotError(`snapshot dimension ${d} differs from its ${b} weights`, { field: 'dim', value: d });
  }
  const a = checkSnapshot(snapshot, 'direct-logit', DIRECT_LOGIT_SNAPSHOT_VERSION, lengths);
  return {
    dim: d, settings,
    grid: { b, mbar, K: 0, support: a.support.slice(), logPrior: a.logPrior.slice(), noiseSupport: new Float64Array(0), logNoisePrior: new Float64Array(0) },
    features: rffCount === undefined ? undefined : new RandomFourierFeatures(d, rffCount, a.rffOmega.slice(), a.rffLengthscales.slice()),
    logits: a.logits.slice(), adam: Adam.fromState(a.adam), records: a.scalars[0],
  };
}
