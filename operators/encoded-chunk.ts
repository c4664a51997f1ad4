import type { EncodedValues } from './worker/encoded-values.js';
import type { DecoderSpec } from './worker/worker-decoders.js';

/**
 * Records still encoded (a Kafka partition's message values), for a learner that decodes where the
 * model lives (`Learner.learnEncoded`): `values` in one transferable buffer, the decoder to use,
 * the source positions once the whole chunk is consumed, how many records it takes (what the queue
 * and the snapshot triggers count), and `describe(i)`, what a bad-record sink receives for record i.
 * With `minibatch`, the learner updates the model once per `minibatch` consecutive encoded records
 * (the good ones among them), scoring each slice before it is learned, as if each slice were a chunk
 * of its own: several minibatches cross to the worker in one message.
 */
export interface EncodedChunk {
  readonly kind: 'encoded';
  readonly values: EncodedValues;
  readonly decoder: DecoderSpec;
  readonly positions: { readonly [source: string]: number };
  readonly consumed: number;
  /** Encoded records per model update; without it, one update for the whole chunk. */
  readonly minibatch?: number;
  describe(index: number): unknown;
}
