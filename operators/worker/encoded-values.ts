import { isAscii } from 'node:buffer';

/**
 * Records still encoded (e.g. Kafka message values), packed for a thread hop in one transferable
 * buffer: each record's stream row (`Float64`), the start and length of its value bytes (`Int32`;
 * length −1 for a null value), then the bytes. Built by {@link EncodedValues.pack} on the thread
 * that reads the source, rebuilt on the worker from `buffer` and `count` (no copy) and read there.
 */
export class EncodedValues {
  private readonly rows: Float64Array;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  /** The whole buffer as a `Buffer`, made at the first {@link latin1}. */
  private bytes: Buffer | undefined;

  constructor(readonly buffer: ArrayBuffer, readonly count: number) {
    this.rows = new Float64Array(buffer, 0, count);
    this.starts = new Int32Array(buffer, 8 * count, count);
    this.lengths = new Int32Array(buffer, 12 * count, count);
  }

  /** Packs `count` records: `valueAt(i)` their bytes (or null), `rowAt(i)` their stream rows. */
  static pack(count: number, valueAt: (i: number) => Uint8Array | null, rowAt: (i: number) => number): EncodedValues {
    let bytes = 0;
    for (let i = 0; i < count; i++) bytes += valueAt(i)?.length ?? 0;
    const header = 16 * count;
    const packed = new EncodedValues(new ArrayBuffer(header + bytes), count);
    const data = new Uint8Array(packed.buffer);
    let at = header;
    for (let i = 0; i < count; i++) {
      const value = valueAt(i);
      packed.rows[i] = rowAt(i);
      packed.starts[i] = at;
      packed.lengths[i] = value === null ? -1 : value.length;
      if (value !== null) {
        data.set(value, at);
        at += value.length;
      }
    }
    return packed;
  }

  /** Record i's stream row. */
  row(i: number): number {
    return this.rows[i];
  }

  /** Whether every value's bytes are ASCII, checked once for all of them (then each value's text is its {@link latin1} string). */
  ascii(): boolean {
    return isAscii(new Uint8Array(this.buffer, 16 * this.count));
  }

  /** Record i's value read as Latin-1, one character per byte (its text when every value is {@link ascii}), or null; no `Buffer` per record. */
  latin1(i: number): string | null {
    const length = this.lengths[i];
    if (length < 0) return null;
    this.bytes ??= Buffer.from(this.buffer);
    return this.bytes.toString('latin1', this.starts[i], this.starts[i] + length);
  }

  /** Record i's value as a `Buffer` view into the packed bytes (no copy), or null. */
  value(i: number): Buffer | null {
    const length = this.lengths[i];
    return length < 0 ? null : Buffer.from(this.buffer, this.starts[i], length);
  }
}
