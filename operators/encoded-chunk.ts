import type { EncodedValues } from './worker/encoded-values.js';
import type { DecoderSpec } from './worker/worker-decoders.js';

/**
 * Records still encoded (a Kafka partition's message values), for a learner that decodes where the
 * model lives (`Learner.learnEncoded`): `values` in one transferable buffer, the decoder to use,
 * the source positions once the whole chunk is consumed, how many records it takes (what the queue
 * and the snapshot triggers count), and `describe(i)`, what a bad-record sink receives for record i.
 */
export interface EncodedChunk {
  readonly kind: 'encoded';
  readonly values: EncodedValues;
  readonly decoder: DecoderSpec;
  readonly positions: { readonly [source: string]: number };
  readonly consumed: number;
  describe(index: number): unknown;
}
