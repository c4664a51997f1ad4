import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { RandomFourierFeatures } from '../../features/random-fourier-features.js';
import { headerInteger } from './header-integer.js';
import type { DirectGrid } from './state.js';

/** The grid and feature-map part of a DIRECT snapshot, before its arrays are checked. */
export interface DecodedGridHeader {
  readonly b: number;
  readonly mbar: number;
  readonly K: number;
  /** Lengths of the grid and feature-map arrays, for `checkSnapshot`. */
  readonly lengths: { readonly [name: string]: number };
  /** The grid and feature map from the (checked) arrays, copied. */
  build(arrays: ModelSnapshot['arrays']): { grid: DirectGrid; features: RandomFourierFeatures | undefined };
}

/**
 * What the `direct` and `direct-logit` snapshots share: header fields b, m̄ (and K with noise atoms)
 * and `rffCount` (null without a feature map); arrays `support`, `logPrior` (then `noiseSupport`,
 * `logNoisePrior`) and, with a map, `rffOmega` and `rffLengthscales`.
 */
export const directGridCodec = {
  /** The header count of the feature map. */
  rffCount(features: RandomFourierFeatures | undefined): number | null {
    return features === undefined ? null : features.count;
  },

  /** Copies of the grid's arrays (the noise atoms when `noise`). */
  gridArrays(grid: DirectGrid, noise: boolean): { [name: string]: Float64Array } {
    const arrays: { [name: string]: Float64Array } = { support: grid.support.slice(), logPrior: grid.logPrior.slice() };
    if (noise) {
      arrays.noiseSupport = grid.noiseSupport.slice();
      arrays.logNoisePrior = grid.logNoisePrior.slice();
    }
    return arrays;
  },

  /** Copies of the feature map's arrays (none without a map). */
  featureArrays(features: RandomFourierFeatures | undefined): { [name: string]: Float64Array } {
    return features === undefined ? {} : { rffOmega: features.omega.slice(), rffLengthscales: features.lengthscales.slice() };
  },

  /** Reads b, m̄, K (`noise`) and the map's size from the header and checks them against the snapshot's dimension. */
  decode(snapshot: ModelSnapshot, noise: boolean): DecodedGridHeader {
    const h = snapshot.header as { b?: unknown; mbar?: unknown; K?: unknown; rffCount?: unknown };
    const b = headerInteger(h.b, 'b');
    const mbar = headerInteger(h.mbar, 'mbar');
    const K = noise ? headerInteger(h.K, 'K') : 0;
    const rffCount = h.rffCount === null ? undefined : headerInteger(h.rffCount, 'rffCount');
    const d = snapshot.dim;
    const lengths: { [name: string]: number } = { support: b * mbar, logPrior: b * mbar };
    if (noise) {
      lengths.noiseSupport = K;
      lengths.logNoisePrior = K;
    }
    if (rffCount !== undefined) {
      if (2 * rffCount !== b) throw new SnapshotError(`feature map gives ${2 * rffCount} features, the grid has ${b}`, { field: 'rffCount', value: rffCount });
      lengths.rffOmega = d * rffCount;
      lengths.rffLengthscales = d;
    } else if (d !== b) {
      throw new SnapshotError(`snapshot dimension ${d} differs from its ${b} weights`, { field: 'dim', value: d });
    }
    return {
      b, mbar, K, lengths,
      build: (a) => ({
        grid: {
          b, mbar, K, support: a.support.slice(), logPrior: a.logPrior.slice(),
          noiseSupport: noise ? a.noiseSupport.slice() : new Float64Array(0), logNoisePrior: noise ? a.logNoisePrior.slice() : new Float64Array(0),
        },
        features: rffCount === undefined ? undefined : new RandomFourierFeatures(d, rffCount, a.rffOmega.slice(), a.rffLengthscales.slice()),
      }),
    };
  },
};
