import avro from 'avsc';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AvroRecordDecoder } from '../../../connectors/kafka/avro-record-decoder.js';
import { confluentWireFormat } from '../../../connectors/kafka/confluent-wire-format.js';
import type { SchemaRegistry } from '../../../connectors/kafka/schema-registry.js';

/**
 * Issue 26, item 14: an Avro value whose block counts or lengths promise more than its bytes hold
 * is refused as `bad-avro` before avsc allocates for it (a 19-byte value used to run the learner out
 * of memory), and so is one that declares more array and map items than the decoder's `maxBytes`.
 * The assertions are on outcomes: without the guard these values exhaust the heap or do not return.
 */
const D = 2;
const rows = { type: 'record', name: 'Row', fields: [{ name: 'x', type: { type: 'array', items: 'double' } }, { name: 'y', type: 'double' }] };
const nested = {
  type: 'record', name: 'Nested', fields: [
    { name: 'x', type: { type: 'array', items: 'double' } },
    { name: 'tags', type: { type: 'map', values: { type: 'array', items: 'null' } } },
    { name: 'groups', type: { type: 'array', items: { type: 'array', items: 'string' } } },
    { name: 'y', type: 'double' },
  ],
};
const unions = {
  type: 'record', name: 'Unions', fields: [
    { name: 'note', type: ['null', 'bytes', { type: 'record', name: 'Counts', fields: [{ name: 'c', type: { type: 'map', values: 'long' } }, { name: 'f', type: { type: 'fixed', name: 'F3', size: 3 } }] }] },
    { name: 'x', type: { type: 'array', items: 'double' } },
    { name: 'flags', type: { type: 'array', items: 'boolean' } },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['A', 'B'] } },
    { name: 'y', type: 'double' },
  ],
};
const SCHEMAS = [rows, nested, unions];

class InMemoryRegistry implements SchemaRegistry {
  async schemaById(id: number): Promise<string | undefined> {
    const schema = SCHEMAS[id - 1];
    return schema === undefined ? undefined : JSON.stringify(schema);
  }
}

/** Zig-zag varint bytes of `n` (|n| up to 2^52), as Avro writes longs. */
function varint(n: number): number[] {
  let z = n >= 0 ? 2 * n : -2 * n - 1;
  const out: number[] = [];
  while (z >= 128) {
    out.push((z % 128) | 0x80);
    z = Math.floor(z / 128);
  }
  out.push(z);
  return out;
}

async function decoderFor(values: readonly Buffer[], maxBytes = 4096): Promise<AvroRecordDecoder> {
  const decoder = new AvroRecordDecoder({ dim: D, task: 'regression', maxBytes }, { registry: new InMemoryRegistry() });
  await decoder.prepare(values);
  return decoder;
}

/** The 19-byte value of the issue: magic 0, schema id 1 (Row), x's block count 2^32 − 1, then 9 bytes. */
const POISON = Buffer.from([0, 0, 0, 0, 1, ...varint(2 ** 32 - 1), ...new Array<number>(9).fill(0)]);

describe('Avro values whose sizes do not fit their bytes', () => {
  it('the 19-byte value with an array block count of 2^32 − 1 is dead-lettered as bad-avro, and the decoder goes on', async () => {
    expect(POISON.length).toBe(19);
    const good = confluentWireFormat.encode(1, avro.Type.forSchema(rows as avro.Schema).toBuffer({ x: [1, 2], y: 3 }));
    const decoder = await decoderFor([POISON, good]);
    const x = new Float64Array(D);
    expect(decoder.decode(POISON, x, 0)).toBeUndefined();
    expect(decoder.failure.reason).toBe('bad-avro');
    expect(decoder.failure.detail).toMatch(/4294967295 items/);
    expect(decoder.decode(good, x, 0)).toBe(3);
    expect([...x]).toEqual([1, 2]);
  });

  const header = (id: number) => [0, 0, 0, 0, id];
  const bombs: [string, number[], RegExp][] = [
    ['an array of doubles declaring 2^40 items', [...header(1), ...varint(2 ** 40), 0, 0], /1099511627776 items/],
    ['a negative (sized) array block of −2^31 items', [...header(1), ...varint(-(2 ** 31)), ...varint(8), 0, 0], /2147483648 items/],
    ['a map declaring 2^33 entries', [...header(2), 0, ...varint(2 ** 33), 0], /8589934592 items/],
    ['an array of nulls (items of no bytes) declaring 2^31 items', [...header(2), 0, 2, 0, ...varint(2 ** 31), 0, 0, 0], /2147483648 items/],
    ['nested arrays of nulls whose items add up past the item limit', [...header(2), 0, 2, 0, ...varint(4000), ...varint(4000), 0, 0, 0, 0], /more than 4096 array and map items/],
    ['an array of arrays declaring 2^45 inner arrays', [...header(2), 0, 0, ...varint(2 ** 45), 0], /35184372088832 items/],
    ['a map key string of length 2^50', [...header(2), 0, 2, ...varint(2 ** 50), 0], /length 1125899906842624/],
    ['bytes of length 2^34 in a union branch', [...header(3), 2, ...varint(2 ** 34), 0], /length 17179869184/],
    ['a union branch index out of range', [...header(3), ...varint(4), 0], /union branch 4/],
    ['a varint longer than 10 bytes', [...header(1), ...new Array<number>(11).fill(0x80), 0], /varint/],
  ];
  it.each(bombs)('%s is refused as bad-avro before it is decoded', async (_, bytes, detail) => {
    const value = Buffer.from(bytes);
    const decoder = await decoderFor([value]);
    expect(decoder.decode(value, new Float64Array(D), 0)).toBeUndefined();
    expect(decoder.failure.reason).toBe('bad-avro');
    expect(decoder.failure.detail).toMatch(detail);
  });

  it('an array of nulls up to the item limit still decodes (the limit is maxBytes items per value)', async () => {
    const type = avro.Type.forSchema(nested as avro.Schema);
    const value = confluentWireFormat.encode(2, type.toBuffer({ x: [1, 2], tags: { a: new Array(4000).fill(null) }, groups: [], y: 1 }));
    const decoder = await decoderFor([value]);
    expect(decoder.decode(value, new Float64Array(D), 0)).toBe(1);
  });
});

/** A random record of schema `s`, with x of the decoder's width (avsc's own random values otherwise). */
function randomRecord(s: number, seed: number): object {
  const type = avro.Type.forSchema(SCHEMAS[s] as avro.Schema);
  const record = type.random() as unknown as { x: number[]; y: number };
  record.x = [seed % 7, -seed / 3];
  record.y = seed / 5;
  return record;
}

const encoded = fc.tuple(fc.integer({ min: 0, max: SCHEMAS.length - 1 }), fc.integer({ min: 0, max: 1e6 })).map(([s, seed]) => ({
  id: s + 1, bytes: avro.Type.forSchema(SCHEMAS[s] as avro.Schema).toBuffer(randomRecord(s, seed)),
}));

/** Any byte string: random, a truncated valid encoding, or a valid encoding with bytes overwritten (counts and lengths included). */
const anyValue = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: SCHEMAS.length }), fc.uint8Array({ maxLength: 64 })).map(([id, bytes]) => confluentWireFormat.encode(id, Buffer.from(bytes))),
  fc.tuple(encoded, fc.nat()).map(([{ id, bytes }, cut]) => confluentWireFormat.encode(id, bytes.subarray(0, cut % (bytes.length + 1)))),
  fc.tuple(encoded, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })).map(([{ id, bytes }, edits]) => {
    const mutated = Buffer.from(bytes);
    for (const [at, byte] of edits) if (mutated.length > 0) mutated[at % mutated.length] = byte;
    return confluentWireFormat.encode(id, mutated);
  }),
);

describe('any Avro value is decoded or refused as bad-avro, with bounded work', () => {
  it('valid encodings of the test schemas (nested arrays, maps, unions) are never refused as bad-avro', async () => {
    await fc.assert(fc.asyncProperty(encoded, async ({ id, bytes }) => {
      const value = confluentWireFormat.encode(id, bytes);
      const decoder = await decoderFor([value], 65_536);
      expect(decoder.decode(value, new Float64Array(D), 0)).not.toBeUndefined();
    }), { numRuns: 200 });
  });

  it('random, truncated and mutated values are decoded (then mapped) or refused as bad-avro, never thrown, and what passes is what avsc decodes', async () => {
    await fc.assert(fc.asyncProperty(anyValue, async (value) => {
      const decoder = await decoderFor([value]);
      const label = decoder.decode(value, new Float64Array(D), 0);
      if (label !== undefined) return;
      const { reason } = decoder.failure;
      expect(['bad-avro', 'wrong-width', 'non-finite', 'out-of-range', 'bad-label']).toContain(reason);
      if (reason !== 'bad-avro') expect(() => avro.Type.forSchema(SCHEMAS[value[4] - 1] as avro.Schema).fromBuffer(value.subarray(5))).not.toThrow();
    }), { numRuns: 1500 });
  });
});
