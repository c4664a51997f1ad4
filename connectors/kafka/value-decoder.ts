import type { DeadLetterReason } from './dead-letter-reason.js';
import type { RecordSchema } from './record-schema.js';

/** Why the last record failed, and the detail the dead letter carries. */
export interface DecodeFailure {
  readonly reason: DeadLetterReason;
  readonly detail: string;
}

/**
 * Turns Kafka record values into features, label and weight: the pluggable part of a Kafka source
 * (JSON by {@link RecordDecoder}, Avro with a schema registry by `AvroRecordDecoder`). `decode`
 * is synchronous and allocation-free per good record; a decoder that needs I/O first (a schema
 * lookup) does it in `prepare`, which the learner awaits before decoding each fetched chunk.
 */
export interface ValueDecoder {
  readonly schema: RecordSchema;
  /** Set by a failed `decode`: why, and a detail naming the field and value. */
  readonly failure: DecodeFailure;
  /** Set by a successful `decode`: the record's weight (1 without a weight field). */
  readonly weight: number;
  /** Makes every value of a chunk decodable without I/O (fetches unknown schemas); a failure that may pass (registry down) throws a retriable error. */
  prepare?(values: readonly (Buffer | null)[]): Promise<void>;
  /** Writes the features to `x[offset .. offset+dim)` and returns the label (NaN when absent and not required), or `undefined` with {@link failure} set. */
  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined;
}

/** Builds the decoder of a pipeline from its record schema (the task filled in from the model family). */
export type DecoderFactory = (schema: RecordSchema) => ValueDecoder;
