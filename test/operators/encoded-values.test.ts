import { describe, expect, it } from 'vitest';
import { EncodedValues } from '../../operators/worker/encoded-values.js';

const text = (value: Buffer | null): string | null => (value === null ? null : value.toString('utf8'));

/** As a worker sees it: the buffer transferred (the sender's copy detached), rebuilt from buffer and count. */
function hop(values: EncodedValues): EncodedValues {
  const { buffer, count } = structuredClone({ buffer: values.buffer, count: values.count }, { transfer: [values.buffer] });
  expect(values.buffer.byteLength).toBe(0);
  return new EncodedValues(buffer, count);
}

describe('EncodedValues', () => {
  it('round-trips values and rows across a transfer, null and empty values kept apart', () => {
    const values: (Buffer | null)[] = [Buffer.from('{"x":[1],"y":1}'), null, Buffer.alloc(0), Buffer.from('héllo'), Buffer.from([0xff, 0x00, 0xfe])];
    const rows = [17, 18, 19, 2 ** 40, 21];
    const packed = hop(EncodedValues.pack(values.length, (i) => values[i], (i) => rows[i]));
    expect(packed.count).toBe(5);
    expect(Array.from({ length: 5 }, (_, i) => packed.row(i))).toEqual(rows);
    expect(Array.from({ length: 5 }, (_, i) => text(packed.value(i)))).toEqual(values.map(text));
    expect(packed.value(1)).toBeNull();
    expect(packed.value(2)).toEqual(Buffer.alloc(0));
    expect(Array.from(packed.value(4)!)).toEqual([0xff, 0x00, 0xfe]);
  });

  it('packs views into larger buffers (as a Kafka client hands them) by their own bytes only', () => {
    const pool = Buffer.from('xxAAAyyBBzz');
    const values = [pool.subarray(2, 5), pool.subarray(7, 9)];
    const packed = hop(EncodedValues.pack(2, (i) => values[i], (i) => i));
    expect([text(packed.value(0)), text(packed.value(1))]).toEqual(['AAA', 'BB']);
  });

  it('says whether every value is ASCII, and reads each value as Latin-1 text (its text when ASCII)', () => {
    const ascii: (Buffer | null)[] = [Buffer.from('{"x":[1],"y":1}'), null, Buffer.alloc(0), Buffer.from('~ \u007f')];
    const packed = hop(EncodedValues.pack(ascii.length, (i) => ascii[i], (i) => i));
    expect(packed.ascii()).toBe(true);
    expect(Array.from({ length: ascii.length }, (_, i) => packed.latin1(i))).toEqual(ascii.map(text));
    for (const odd of [Buffer.from('héllo'), Buffer.from([0x41, 0x80])]) {
      const values = [Buffer.from('plain'), odd];
      expect(hop(EncodedValues.pack(2, (i) => values[i], (i) => i)).ascii()).toBe(false);
    }
    expect(hop(EncodedValues.pack(1, () => null, () => 0)).ascii()).toBe(true);
  });

  it('packs nothing into an empty buffer', () => {
    const packed = hop(EncodedValues.pack(0, () => null, () => 0));
    expect(packed.count).toBe(0);
    expect(packed.buffer.byteLength).toBe(0);
  });

  it('packs a large batch (20,000 values up to 4 KiB, nulls among them) into one buffer, each value intact', () => {
    const n = 20_000;
    const valueOf = (i: number): Buffer | null => (i % 997 === 0 ? null : Buffer.alloc((i * 131) % 4096, i % 251));
    const packed = hop(EncodedValues.pack(n, valueOf, (i) => 1e6 + i));
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const expected = valueOf(i);
      bytes += expected?.length ?? 0;
      expect(packed.row(i)).toBe(1e6 + i);
      if (expected === null) expect(packed.value(i)).toBeNull();
      else expect(packed.value(i)!.equals(expected)).toBe(true);
    }
    expect(packed.buffer.byteLength).toBe(16 * n + bytes);
  });
});
