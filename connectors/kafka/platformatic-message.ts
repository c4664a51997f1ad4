import type { PortHeaders, PortMessage } from './kafka-port.js';

/** A record as `@platformatic/kafka` parses it from a record batch (the fields read here). */
export interface PlatformaticRecord {
  readonly timestampDelta: bigint;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: [Buffer | null, Buffer | null][];
}

/** The headers of a record that has none (shared: a consumed message is read-only). */
const NO_HEADERS: PortHeaders = Object.freeze({});

/**
 * A consumed record as a {@link PortMessage}, over the client's parsed record: the offset, the
 * timestamp and the headers are made when read, not for every record of a fetch (most readers take
 * only the value and a few offsets; a string per offset and timestamp and an object per record were
 * a fifth of the consumer's own cost per record).
 */
export class PlatformaticMessage implements PortMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;

  /** `offset` and `firstTimestamp` (ms) as doubles: exact below 2^53. */
  constructor(private readonly record: PlatformaticRecord, private readonly at: number, private readonly firstTimestamp: number) {
    this.key = record.key;
    this.value = record.value;
  }

  get offset(): string {
    return String(this.at);
  }

  get timestamp(): string {
    return String(this.firstTimestamp + Number(this.record.timestampDelta));
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
