import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import type { JsonValue, ModelSnapshot } from '../../core/model-snapshot.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { directGridCodec } from './grid-codec.js';
import { headerInteger } from './header-integer.js';
import { DirectLogitMixtureBound } from './logit-mixture-bound.js';
import type { DirectLogitState } from './logit-state.js';

/** Layout 1 → 2 (the mixture family): layout 1 is the mean-field model, layout 2 with one component (and the default seed, unused by it); the arrays are the same. */
function migrateFromLayout1(snapshot: ModelSnapshot): ModelSnapshot {
  const header = snapshot.header as { [key: string]: JsonValue };
  const settings = header.settings;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw new SnapshotError('snapshot header is malformed', { field: 'settings', value: settings });
  return { ...snapshot, version: 2, header: { ...header, settings: { ...settings, components: 1, seed: 1 } } };
}

/** The `direct-logit` snapshot (layout 2): grid, the logits (mean field) or mixture parameters, Adam's state, records, the feature map and the settings. */
export const directLogitCodec: FamilyCodec<DirectLogitState> = {
  version: 2,
  encode(state) {
    return {
      header: { b: state.grid.b, mbar: state.grid.mbar, settings: { ...state.settings }, rffCount: directGridCodec.rffCount(state.features) },
      arrays: {
        ...directGridCodec.gridArrays(state.grid, false), logits: state.logits.slice(), adam: state.adam.state(), scalars: Float64Array.of(state.records),
        ...directGridCodec.featureArrays(state.features),
      },
    };
  },
  decode(snapshot) {
    const layout = directGridCodec.decode(snapshot, false);
    const s = (snapshot.header as { settings?: { [k: string]: unknown } }).settings ?? {};
    if (typeof s.learningRate !== 'number') throw new SnapshotError('snapshot header is malformed', { field: 'settings.learningRate', value: s.learningRate });
    const settings = {
      learningRate: s.learningRate, stepsPerBatch: headerInteger(s.stepsPerBatch, 'settings.stepsPerBatch'), dataSize: headerInteger(s.dataSize, 'settings.dataSize'),
      components: headerInteger(s.components, 'settings.components'), seed: headerInteger(s.seed, 'settings.seed'),
    };
    if (settings.components < 1) throw new SnapshotError('snapshot header is malformed', { field: 'settings.components', value: settings.components });
    const size = settings.components === 1 ? layout.b * layout.mbar : DirectLogitMixtureBound.sizeFor(layout, settings.components);
    const a = checkSnapshot(snapshot, 'direct-logit', 2, { ...layout.lengths, logits: size, adam: 5 + 2 * size, scalars: 1 });
    const { grid, features } = layout.build(a);
    return { dim: snapshot.dim, grid, features, settings, logits: a.logits.slice(), adam: Adam.fromState(a.adam), records: a.scalars[0] };
  },
  migrations: { 1: migrateFromLayout1 },
};
