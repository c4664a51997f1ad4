import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { UpdateStats } from '../../src/core/online-model.js';
import type { Predictive } from '../../src/core/predictive.js';
import type { ErrorKind, ErrorLocation } from '../../src/core/vbstream-error.js';
import type { PackedSnapshot } from './packed-snapshot.js';

/** A batch as it crosses to a worker: flat arrays whose buffers are transferred. */
export interface PackedBatch {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly weights?: Float64Array;
  readonly n: number;
  readonly d: number;
  /** Stream row of each record. */
  readonly rows: Float64Array;
}

/** A typed error as plain data. */
export interface SerializedError {
  readonly kind: ErrorKind;
  readonly reason: string;
  readonly location: ErrorLocation;
  readonly retriable: boolean;
}

/** Metrics of a model held by a worker: recorded there and posted as deltas after each learn task. */
export interface WorkerMetricsTask {
  /** The `partition` label of the model's series. */
  readonly partition: string;
}

/** What the model worker is asked to do (`model` names the model the worker holds). */
export type WorkerTask =
  | { readonly op: 'create'; readonly model: string; readonly family: string; readonly dim: number; readonly options?: { readonly [key: string]: JsonValue }; readonly metrics?: WorkerMetricsTask }
  | { readonly op: 'restore'; readonly model: string; readonly snapshot: PackedSnapshot; readonly metrics?: WorkerMetricsTask }
  | { readonly op: 'learn'; readonly model: string; readonly batch: PackedBatch; readonly evaluate: boolean }
  | { readonly op: 'snapshot'; readonly model: string }
  | { readonly op: 'drop'; readonly model: string }
  | { readonly op: 'accumulate'; readonly family: string; readonly dim: number; readonly options?: { readonly [key: string]: JsonValue }; readonly batch: PackedBatch };

/** A learn outcome as plain data (scores' buffers transferred). */
export interface SerializedOutcome {
  readonly stats: UpdateStats;
  readonly recordsSeen: number;
  readonly rejected: readonly { readonly index: number; readonly error: SerializedError }[];
  readonly scores?: { readonly kind: Predictive['kind']; readonly mean: Float64Array; readonly variance: Float64Array; readonly logLoss: Float64Array };
  readonly durationMs: number;
}

/** The worker's answer: a value, or a typed error that the main thread rebuilds. */
export type WorkerReply =
  | { readonly ok: true; readonly recordsSeen?: number; readonly outcome?: SerializedOutcome; readonly snapshot?: PackedSnapshot }
  | { readonly ok: false; readonly error: SerializedError; readonly stack?: string };
