import type { FitData } from './fit-adapter.js';
import type { WorkerFailure } from './worker-failure.js';

/** What `vbstream fit` hands its worker. */
export interface FitJob {
  readonly model: string;
  /** The features' names, in column order (the intercept first with `--intercept`): posterior.json's `features`. */
  readonly features: readonly string[];
  readonly options: { readonly [key: string]: unknown };
  readonly train: FitData;
  readonly test?: { readonly x: Float64Array; readonly n: number };
}

/** What the worker answers: the JSON documents, or the error and the stage (fit or predict) it came from. */
export type FitJobResult =
  | { readonly ok: true; readonly posterior: string; readonly predictions: string | undefined }
  | ({ readonly ok: false; readonly stage: 'fit' | 'predict' } & WorkerFailure);
