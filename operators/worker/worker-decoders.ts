/** A decoder of encoded record values, run in the worker (a Kafka value decoder fits this shape). */
export interface WorkerValueDecoder {
  /** Set by a failed `decode`: a machine-readable reason and a detail naming the field and value. */
  readonly failure: { readonly reason: string; readonly detail: string };
  /** Set by a successful `decode`: the record's weight. */
  readonly weight: number;
  /** Writes the features to `x[offset .. offset+dim)` and returns the label, or `undefined` with `failure` set. */
  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined;
  /** `decode` of a value known to be ASCII, given as its text (one character per byte): the same answer, without checking and decoding its bytes as UTF-8. */
  decodeAscii?(text: string, x: Float64Array, offset: number): number | undefined;
}

/** Which decoder a `learn-encoded` task uses: a kind registered in the worker, its (cloneable) configuration, and whether records carry weights. */
export interface DecoderSpec {
  readonly kind: string;
  readonly config: unknown;
  readonly weighted: boolean;
}

/**
 * The value decoders a model worker can run, by kind: a worker entry module of an upper layer
 * (e.g. the Kafka connector's) registers its decoders here, then re-exports the model worker.
 */
export const workerDecoders = new Map<string, (config: unknown) => WorkerValueDecoder>();
