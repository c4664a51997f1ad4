import type { Batch } from '../../core/batch.js';
import { GaussianSampler } from '../../gaussian/gaussian-sampler.js';
import { emptyLogitTilt, type LogitTilt } from './logit-tilt.js';
import { logitRules, type LogitRules } from './logit-rules.js';
import { emptyPredictedRow, type PredictedRow } from './predicted-row.js';
import type { QuadratureScratch } from './quadrature-scratch.js';
import { emptyRecordPlan, type RecordPlan } from './record-plan.js';
import { emptySiteRevisit, type SiteRevisit } from './site-revisit.js';
import type { TiltedMoments } from './tilted-moments.js';
import { stableShape } from '../../core/stable-shape.js';

/** Scratch of an ADF model (reused by every record and prediction) and its sampler's cached factor. */
export interface AdfWorkspace {
  /** V·x of the current record. */
  readonly vx: Float64Array;
  /** V·x of the window site being revisited. */
  readonly siteVx: Float64Array;
  readonly moments: TiltedMoments;
  readonly quadrature: QuadratureScratch;
  /** The logit's rules by projection variance, the model's own rule last. */
  readonly logitRules: LogitRules;
  readonly tilt: LogitTilt;
  /** What the last prediction computed, for the update that follows it. */
  readonly predicted: PredictedRow;
  /** The current record's planned change. */
  readonly plan: RecordPlan;
  /** The change of a site revisit ({@link revisitSite} beyond the first). */
  readonly revisit: SiteRevisit;
  readonly sampler: GaussianSampler;
  labels: Float64Array;
  /** The shell's backup, while a single-record step has not yet decided whether it needs it. */
  backup: (() => void) | undefined;
  /** The batch a forgetting bank is feeding its members (cleared after the step) and its labels. */
  batch: Batch | undefined;
  batchLabels: Float64Array;
}

/** A workspace for dimension `dim` and an `nodes`-point Gauss–Hermite rule. */
export function adfWorkspace(dim: number, nodes: number): AdfWorkspace {
  const rules = logitRules(nodes);
  return stableShape({
    vx: new Float64Array(dim), siteVx: new Float64Array(dim), moments: stableShape({ logZ: 0, alpha: 0, nu: 0 }, ['logZ', 'alpha', 'nu']), quadrature: rules.rules[rules.rules.length - 1], logitRules: rules,
    tilt: emptyLogitTilt(), predicted: emptyPredictedRow(dim), plan: emptyRecordPlan(dim), revisit: emptySiteRevisit(), sampler: new GaussianSampler(dim), labels: new Float64Array(1),
    backup: undefined, batch: undefined, batchLabels: new Float64Array(0),
  });
}
