import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { Adam } from '../../optim/adam.js';
import { directGridCodec } from './grid-codec.js';
import { headerInteger } from './header-integer.js';
import type { DirectLogitState } from './logit-state.js';

/** The `direct-logit` snapshot (layout 1, the only one so far): grid, logits, Adam's state, records, the feature map and the settings. */
export const directLogitCodec: FamilyCodec<DirectLogitState> = {
  version: 1,
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
    const bm = layout.b * layout.mbar;
    const s = (snapshot.header as { settings?: { [k: string]: unknown } }).settings ?? {};
    if (typeof s.learningRate !== 'number') throw new SnapshotError('snapshot header is malformed', { field: 'settings.learningRate', value: s.learningRate });
    const settings = { learningRate: s.learningRate, stepsPerBatch: headerInteger(s.stepsPerBatch, 'settings.stepsPerBatch'), dataSize: headerInteger(s.dataSize, 'settings.dataSize') };
    const a = checkSnapshot(snapshot, 'direct-logit', 1, { ...layout.lengths, logits: bm, adam: 5 + 2 * bm, scalars: 1 });
    const { grid, features } = layout.build(a);
    return { dim: snapshot.dim, grid, features, settings, logits: a.logits.slice(), adam: Adam.fromState(a.adam), records: a.scalars[0] };
  },
};
