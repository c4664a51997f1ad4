import type { PortHeaders, PortMessage } from './kafka-port.js';

/** A record as `@platformatic/kafka` parses it from a record batch (the fields read here). */
export interface PlatformaticRecord {
  readonly offsetDelta: number;
  readonly timestampDelta: bigint;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: [Buffer | null, Buffer | null][];
}

/** The record batch a {@link PlatformaticRecord} came in, as the client parses it (the fields read here). */
export interface PlatformaticRecordBatch {
  readonly firstOffset: bigint;
  readonly firstTimestamp: bigint;
}

/** The headers of a record that has none (shared: a consumed message is read-only). */
const NO_HEADERS: PortHeaders = Object.freeze({});

/**
 * A consumed record as a {@link PortMessage}, over the client's parsed record: the offset, the
 * timestamp and the headers are made when read, not for every record of a fetch (most readers take
 * only the value and a few offsets; a string per offset and timestamp and an object per record were
 * a fifth of the consumer's own cost per record). It holds the client's record and its record batch,
 * no number of its own (four fields: the smallest object that still has `key` and `value` as its own).
 */
export class PlatformaticMessage implements PortMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;

  constructor(private readonly record: PlatformaticRecord, private readonly recordBatch: PlatformaticRecordBatch) {
    this.key = record.key;
    this.value = record.value;
  }

  /** The offset as a double: exact below 2^53. */
  private get at(): number {
    return Number(this.recordBatch.firstOffset) + this.record.offsetDelta;
  }

  get offset(): string {
    return String(this.at);
  }

  get timestamp(): string {
    return String(Number(this.recordBatch.firstTimestamp) + Number(this.record.timestampDelta));
  }

  /** Every field by name, as `JSON.stringify` and loggers read a message (a spread copies only the key and the value). */
  toJSON(): { key: Buffer | null; value: Buffer | null; offset: string; timestamp: string; headers: PortHeaders } {
    return { key: this.key, value: this.value, offset: this.offset, timestamp: this.timestamp, headers: this.headers };
  }

  /** As kafkajs gives them: a repeated name becomes an array; a header without a name or value is left out. */
  get headers(): PortHeaders {
    const headers = this.record.headers;
    if (headers.length === 0) return NO_HEADERS;
    const result: { [key: string]: Buffer | Buffer[] } = {};
    for (const [name, value] of headers) {
      if (name === null || value === null) continue;
      const key = name.toString('utf8');
      const current = result[key];
      result[key] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    }
    return result;
  }
}
