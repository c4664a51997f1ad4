import type { InputLimits } from '../../src/core/input-limits.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { UpdateStats } from '../../src/core/online-model.js';
import type { Predictive } from '../../src/core/predictive.js';
import type { ErrorKind, ErrorLocation } from '../../src/core/vbstream-error.js';
import type { PackedSnapshot } from './packed-snapshot.js';
import type { DecoderSpec } from './worker-decoders.js';

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

/** Encoded records as they cross to a worker (`EncodedValues`: its buffer is transferred). */
export interface EncodedValuesTask {
  readonly buffer: ArrayBuffer;
  readonly count: number;
}

/** What the worker decoded of a `learn-encoded` task: labels, rows and indices among the encoded records of the ones it could decode (the learned batch, in order), and the ones it could not. */
export interface DecodedValues {
  readonly labels: Float64Array;
  readonly rows: Float64Array;
  readonly kept: Int32Array;
  /** Index among the encoded records, stream row, the decoder's reason and detail. */
  readonly refused: readonly { readonly index: number; readonly row: number; readonly reason: string; readonly detail: string }[];
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
  | { readonly op: 'create'; readonly model: string; readonly family: string; readonly dim: number; readonly options?: { readonly [key: string]: JsonValue }; readonly limits?: InputLimits; readonly metrics?: WorkerMetricsTask }
  | { readonly op: 'restore'; readonly model: string; readonly snapshot: PackedSnapshot; readonly limits?: InputLimits; readonly metrics?: WorkerMetricsTask }
  | { readonly op: 'learn'; readonly model: string; readonly batch: PackedBatch; readonly evaluate: boolean }
  | { readonly op: 'learn-encoded'; readonly model: string; readonly values: EncodedValuesTask; readonly decoder: DecoderSpec; readonly evaluate: boolean; readonly minibatch?: number }
  | { readonly op: 'snapshot'; readonly model: string }
  | { readonly op: 'drop'; readonly model: string }
  | { readonly op: 'accumulate'; readonly family: string; readonly dim: number; readonly options?: { readonly [key: string]: JsonValue }; readonly limits?: InputLimits; readonly batch: PackedBatch };

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
  | { readonly ok: true; readonly recordsSeen?: number; readonly outcome?: SerializedOutcome; readonly snapshot?: PackedSnapshot; readonly decoded?: DecodedValues }
  | { readonly ok: false; readonly error: SerializedError; readonly stack?: string };
