import { emptySiteRevisit, type SiteRevisit } from './site-revisit.js';
import { stableShape } from '../../core/stable-shape.js';

/**
 * What {@link planAdfRecord} computed for one record before anything is written: V·x, the record's
 * moments and site, w and ln|V| after the record and its first revisit, that revisit's slot and
 * change, and whether the new state is finite (w, ln|V| and V's diagonal, what the family checks).
 */
export interface RecordPlan {
  /** V·x of the record (the workspace's buffer or the predicted row's). */
  vx: Float64Array;
  alpha: number;
  nu: number;
  logPredictive: number;
  shrink: number;
  sitePrecision: number;
  siteShift: number;
  readonly w: Float64Array;
  logDetV: number;
  /** The window slot of the first revisit (its V·x in the workspace's `siteVx`), −1 without revisits. */
  revisitSlot: number;
  /** Whether that revisit changes its site (`revisit` holds the change). */
  revisited: boolean;
  readonly revisit: SiteRevisit;
  finite: boolean;
}

/** An empty {@link RecordPlan} for dimension `dim`. */
export function emptyRecordPlan(dim: number): RecordPlan {
  return stableShape({
    vx: new Float64Array(dim), alpha: 0, nu: 0, logPredictive: 0, shrink: 1, sitePrecision: 0, siteShift: 0, w: new Float64Array(dim), logDetV: 0,
    revisitSlot: -1, revisited: false, revisit: emptySiteRevisit(), finite: true,
  }, ['alpha', 'nu', 'logPredictive', 'shrink', 'sitePrecision', 'siteShift', 'logDetV']);
}
