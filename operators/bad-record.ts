/**
 * A record that failed parsing or validation, sent to the error side-channel (a `Subject` or any
 * observer) while the stream carries on: the record (parsed or raw), the reason in words, and the
 * typed error behind it (row, column, field, value).
 */
export interface BadRecord {
  readonly record: unknown;
  readonly reason: string;
  readonly error: unknown;
  /** A decoder's machine-readable reason (e.g. a Kafka dead-letter reason) when a decoder refused the record. */
  readonly code?: string;
}

/** Anything that takes bad records: an RxJS `Subject`, an `Observer`, or a plain `{ next }`. */
export interface BadRecordSink {
  next(bad: BadRecord): void;
}
