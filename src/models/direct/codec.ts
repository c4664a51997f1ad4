import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { JsonValue, ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { directGridCodec } from './grid-codec.js';
import { headerInteger } from './header-integer.js';
import { DirectMixtureElbo } from './mixture-objective.js';
import type { DirectState } from './state.js';

function malformed(field: string, value: unknown): never {
  throw new SnapshotError('snapshot header is malformed', { field, value });
}

function positive(value: unknown, field: string): number {
  return typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : malformed(field, value);
}

/**
 * Layout 1 → 2 (the mixture family): layout 1 had no mixture settings and no `mixture` array, and
 * its first version no `caviSweeps` either (L-BFGS alone, which `caviSweeps: 0` reproduces). The
 * mean-field model it describes is layout 2 with components 1 and the other mixture settings at
 * their defaults (unused with one component).
 */
function migrateFromLayout1(snapshot: ModelSnapshot): ModelSnapshot {
  const header = snapshot.header as { [key: string]: JsonValue };
  const settings = header.settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return malformed('settings', settings);
  const components = settings.components ?? 1;
  if (components !== 1) return malformed('settings.components', components);
  return {
    ...snapshot, version: 2,
    header: { ...header, settings: { caviSweeps: 0, ...settings, components: 1, mixtureSteps: 500, mixtureLearningRate: 0.05, mixtureEntropy: 'stochastic', entropySamples: 3000 } },
    arrays: { ...snapshot.arrays, mixture: new Float64Array(0) },
  };
}

/**
 * The `direct` snapshot (layout 2): grid, statistics (ΦᵀΦ whole), the committed logits and mixture
 * parameters, `stale`, the feature map and the settings. Layout-1 snapshots (before mixtures) are
 * migrated.
 */
export const directCodec: FamilyCodec<DirectState> = {
  version: 2,
  encode(state) {
    const { grid, stats, features, settings } = state;
    return {
      header: { b: grid.b, mbar: grid.mbar, K: grid.K, stale: state.stale, settings: { ...settings }, rffCount: directGridCodec.rffCount(features) },
      arrays: {
        ...directGridCodec.gridArrays(grid, true),
        gram: stats.gram.slice(), phiTy: stats.phiTy.slice(), scalars: Float64Array.of(stats.yty, stats.n, stats.records, state.sinceFit),
        logits: state.logits.slice(), mixture: state.mixture.slice(),
        ...directGridCodec.featureArrays(features),
      },
    };
  },
  decode(snapshot) {
    const layout = directGridCodec.decode(snapshot, true);
    const { b, mbar, K } = layout;
    const h = snapshot.header as { stale?: unknown; settings?: { [k: string]: unknown } };
    const s = h.settings ?? {};
    const settings = {
      restarts: headerInteger(s.restarts, 'settings.restarts'), seed: headerInteger(s.seed, 'settings.seed'), maxIter: headerInteger(s.maxIter, 'settings.maxIter'),
      refitEvery: headerInteger(s.refitEvery, 'settings.refitEvery'), caviSweeps: headerInteger(s.caviSweeps, 'settings.caviSweeps'),
      components: headerInteger(s.components, 'settings.components'), mixtureSteps: headerInteger(s.mixtureSteps, 'settings.mixtureSteps'),
      mixtureLearningRate: positive(s.mixtureLearningRate, 'settings.mixtureLearningRate'),
      mixtureEntropy: s.mixtureEntropy === 'bound' || s.mixtureEntropy === 'stochastic' ? (s.mixtureEntropy as 'bound' | 'stochastic') : malformed('settings.mixtureEntropy', s.mixtureEntropy),
      entropySamples: headerInteger(s.entropySamples, 'settings.entropySamples'),
    };
    if (settings.components < 1) malformed('settings.components', settings.components);
    if (typeof h.stale !== 'boolean') malformed('stale', h.stale);
    const a = checkSnapshot(snapshot, 'direct', 2, {
      ...layout.lengths, gram: b * b, phiTy: b, scalars: 4,
      logits: b * mbar + K, mixture: settings.components === 1 ? 0 : DirectMixtureElbo.sizeFor(layout, settings.components),
    });
    const { grid, features } = layout.build(a);
    return {
      dim: snapshot.dim, grid, features, settings,
      stats: { b, gram: a.gram.slice(), phiTy: a.phiTy.slice(), yty: a.scalars[0], n: a.scalars[1], records: a.scalars[2], complete: true },
      logits: a.logits.slice(), mixture: a.mixture.slice(), stale: h.stale, sinceFit: a.scalars[3],
      lastFit: { iterations: 0, converged: true, startElbos: [] },
    };
  },
  migrations: { 1: migrateFromLayout1 },
  invariants: (s) => snapshotChecks.positive('noiseSupport', s.grid.noiseSupport) ?? snapshotChecks.nonNegative('n', s.stats.n),
};
