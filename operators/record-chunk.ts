import type { Batch } from '../src/core/batch.js';

/**
 * Records already packed into a flat {@link Batch} (what a Kafka partition's decoder produces,
 * without a per-record object): `rows[i]` is record i's stream row (its offset), `positions` the
 * source positions once the whole chunk is consumed (records the decoder refused included), and
 * `describe(i)` what a bad-record sink receives for record i (the message it came from).
 */
export interface RecordChunk {
  readonly kind: 'chunk';
  readonly batch: Batch;
  readonly rows: Float64Array;
  readonly positions: { readonly [source: string]: number };
  /** Records the decoder consumed in all (good ones in `batch`, refused ones before it): what the queue and the snapshot triggers count. */
  readonly consumed: number;
  describe(index: number): unknown;
}
