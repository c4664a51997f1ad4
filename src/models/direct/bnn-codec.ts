import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { DIRECT_BNN_MAX_INPUTS } from './bnn-create-state.js';
import { directBnnPackedSizes } from './bnn-packed-sizes.js';
import type { DirectBnnState } from './bnn-state.js';
import { directGridCodec } from './grid-codec.js';
import { headerInteger } from './header-integer.js';

function malformed(field: string, value: unknown): never {
  throw new SnapshotError('snapshot header is malformed', { field, value });
}

/**
 * The `direct-bnn` snapshot (layout 1): header H, m̄, K, `stale` and the settings; arrays the grid
 * (`support`, `logPrior`, `noiseSupport`, `logNoisePrior`), the packed statistics `fourth` and
 * `crossY`, `scalars` (yᵀWy, records, records since the last fit) and the committed `logits`.
 */
export const directBnnCodec: FamilyCodec<DirectBnnState> = {
  version: 1,
  invariants: (s) => snapshotChecks.positive('noiseSupport', s.grid.noiseSupport),
  encode(state) {
    const { grid, stats, settings, shape } = state;
    return {
      header: { hidden: shape.H, mbar: grid.mbar, K: grid.K, stale: state.stale, settings: { ...settings, temperatures: [...settings.temperatures] } },
      arrays: {
        ...directGridCodec.gridArrays(grid, true),
        fourth: stats.fourth.slice(), crossY: stats.crossY.slice(), scalars: Float64Array.of(stats.yty, stats.records, state.sinceFit), logits: state.logits.slice(),
      },
    };
  },
  decode(snapshot) {
    const h = snapshot.header as { hidden?: unknown; mbar?: unknown; K?: unknown; stale?: unknown; settings?: { [k: string]: unknown } };
    const H = headerInteger(h.hidden, 'hidden');
    const mbar = headerInteger(h.mbar, 'mbar');
    const K = headerInteger(h.K, 'K');
    if (H < 1) malformed('hidden', H);
    if (typeof h.stale !== 'boolean') malformed('stale', h.stale);
    const s = h.settings ?? {};
    const initScale = s.initScale;
    if (typeof initScale !== 'number' || !(initScale >= 0) || !Number.isFinite(initScale)) malformed('settings.initScale', initScale);
    const temperatures = s.temperatures;
    if (!Array.isArray(temperatures) || !temperatures.every((t) => typeof t === 'number' && t > 1 && Number.isFinite(t))) malformed('settings.temperatures', temperatures);
    const settings = {
      restarts: headerInteger(s.restarts, 'settings.restarts'), seed: headerInteger(s.seed, 'settings.seed'), maxIter: headerInteger(s.maxIter, 'settings.maxIter'),
      refitEvery: headerInteger(s.refitEvery, 'settings.refitEvery'), initScale, temperatures: [...(temperatures as number[])],
    };
    const d = snapshot.dim;
    const D = d + 1;
    const b = H * D + H + 1;
    const sizes = directBnnPackedSizes(D);
    const a = checkSnapshot(snapshot, 'direct-bnn', 1, {
      support: b * mbar, logPrior: b * mbar, noiseSupport: K, logNoisePrior: K, fourth: sizes.fourth, crossY: sizes.crossY, scalars: 3, logits: b * mbar + K,
    });
    if (d > DIRECT_BNN_MAX_INPUTS) throw new SnapshotError(`direct-bnn takes at most ${DIRECT_BNN_MAX_INPUTS} inputs`, { field: 'dim', value: d });
    return {
      dim: d, shape: { d, D, H, b },
      grid: { b, mbar, K, support: a.support.slice(), logPrior: a.logPrior.slice(), noiseSupport: a.noiseSupport.slice(), logNoisePrior: a.logNoisePrior.slice() },
      stats: { fourth: a.fourth.slice(), crossY: a.crossY.slice(), yty: a.scalars[0], records: a.scalars[1] },
      settings, logits: a.logits.slice(), stale: h.stale, sinceFit: a.scalars[2], lastFit: { iterations: 0, converged: true, startElbos: [] },
    };
  },
};
