import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { AvroRecordDecoder } from '../../../connectors/kafka/avro-record-decoder.js';
import { confluentWireFormat } from '../../../connectors/kafka/confluent-wire-format.js';
import type { SchemaRegistry } from '../../../connectors/kafka/schema-registry.js';
import { ConfigError } from '../../../src/core/config-error.js';

const v1 = { type: 'record', name: 'Click', fields: [{ name: 'a', type: 'double' }, { name: 'b', type: 'double' }, { name: 'clicked', type: 'int' }] };
const v2 = { ...v1, fields: [...v1.fields, { name: 'w', type: ['null', 'double'], default: null }] };
const arrays = { type: 'record', name: 'Row', fields: [{ name: 'x', type: { type: 'array', items: 'double' } }, { name: 'y', type: 'double' }] };

/** Schema-registry wire-format bytes, as Confluent's and Apicurio's serializers write them. */
function framed(id: number, schema: object, record: object): Buffer {
  return confluentWireFormat.encode(id, avro.Type.forSchema(schema as avro.Schema).toBuffer(record));
}

class InMemoryRegistry implements SchemaRegistry {
  lookups = 0;
  constructor(private readonly schemas: Map<number, object>) {}
  async schemaById(id: number): Promise<string | undefined> {
    this.lookups++;
    const schema = this.schemas.get(id);
    return schema === undefined ? undefined : JSON.stringify(schema);
  }
}

describe('AvroRecordDecoder', () => {
  it('decodes schema-registry framed Avro by named fields, looks each schema id up once, and resolves an evolved writer schema to the reader schema', async () => {
    const registry = new InMemoryRegistry(new Map([[1, v1], [2, v2]]));
    const decoder = new AvroRecordDecoder({ dim: 2, features: ['b', 'a'], label: 'clicked', weight: 'w', task: 'classification' }, { registry, readerSchema: v2 });
    const values = [framed(1, v1, { a: 1.5, b: -2, clicked: 1 }), framed(2, v2, { a: 3, b: 4, clicked: 0, w: 2.5 }), framed(1, v1, { a: 0, b: 0, clicked: 0 })];
    await decoder.prepare(values);
    await decoder.prepare(values);
    expect(registry.lookups).toBe(2);
    const x = new Float64Array(6);
    expect(decoder.decode(values[0], x, 0)).toBe(1);
    expect(decoder.weight).toBe(1);
    expect(decoder.decode(values[1], x, 2)).toBe(0);
    expect(decoder.weight).toBe(2.5);
    expect(decoder.decode(values[2], x, 4)).toBe(0);
    expect([...x]).toEqual([-2, 1.5, 4, 3, 0, 0]);
  });

  it('reads an x array and y with each value\'s own writer schema when no reader schema is given', async () => {
    const decoder = new AvroRecordDecoder({ dim: 3, task: 'regression' }, { registry: new InMemoryRegistry(new Map([[7, arrays]])) });
    const value = framed(7, arrays, { x: [1, 2, 3], y: -0.5 });
    await decoder.prepare([value]);
    const x = new Float64Array(3);
    expect(decoder.decode(value, x, 0)).toBe(-0.5);
    expect([...x]).toEqual([1, 2, 3]);
  });

  it('dead-letters what it cannot use, with the reason and the detail, and keeps going', async () => {
    const registry = new InMemoryRegistry(new Map([[1, v1], [3, { type: 'record', name: 'Other', fields: [{ name: 'q', type: 'string' }] }]]));
    const decoder = new AvroRecordDecoder({ dim: 2, features: ['a', 'b'], label: 'clicked', task: 'classification', maxBytes: 64 }, { registry, readerSchema: v1 });
    const cases: [Buffer | null, string, RegExp][] = [
      [null, 'empty', /no value/],
      [Buffer.from('{"a":1}'), 'bad-avro', /wire format/],
      [framed(9, v1, { a: 1, b: 2, clicked: 1 }), 'unknown-schema', /schema id 9 is not in the registry/],
      [framed(3, { type: 'record', name: 'Other', fields: [{ name: 'q', type: 'string' }] }, { q: 'hi' }), 'unknown-schema', /cannot be read with the reader schema/],
      [confluentWireFormat.encode(1, Buffer.from([0x01])), 'bad-avro', /does not decode with schema id 1/],
      [framed(1, v1, { a: 1, b: 2, clicked: 3 }), 'bad-label', /clicked is 3/],
      [framed(1, v1, { a: Number.POSITIVE_INFINITY, b: 2, clicked: 1 }), 'non-finite', /a is Infinity/],
      [framed(1, v1, { a: 1, b: 1e200, clicked: 1 }), 'out-of-range', /b is 1e\+200; feature is out of range/],
      [confluentWireFormat.encode(1, Buffer.alloc(80)), 'oversize', /limit 64/],
    ];
    await decoder.prepare(cases.map(([value]) => value));
    const x = new Float64Array(2);
    for (const [value, reason, detail] of cases) {
      expect(decoder.decode(value, x, 0), reason).toBeUndefined();
      expect(decoder.failure.reason).toBe(reason);
      expect(decoder.failure.detail).toMatch(detail);
    }
    expect(decoder.decode(framed(1, v1, { a: 1, b: 2, clicked: 1 }), x, 0)).toBe(1);
  });

  it('remembers the last 1,024 schema ids the registry did not know, not more: a recent one is not asked again, an older one is (issue 26, item 14)', async () => {
    const registry = new InMemoryRegistry(new Map([[1, v1]]));
    const decoder = new AvroRecordDecoder({ dim: 2, features: ['a', 'b'], label: 'clicked', task: 'classification' }, { registry });
    const unknown = (id: number) => confluentWireFormat.encode(id, Buffer.from([0]));
    for (let chunk = 0; chunk < 10; chunk++) await decoder.prepare(Array.from({ length: 500 }, (_, i) => unknown(1000 + chunk * 500 + i)));
    expect(registry.lookups).toBe(5000);
    const x = new Float64Array(2);
    expect(decoder.decode(unknown(5999), x, 0)).toBeUndefined();
    expect(decoder.failure).toEqual({ reason: 'unknown-schema', detail: 'schema id 5999 is not in the registry' });
    await decoder.prepare([unknown(5999), unknown(5000), unknown(5500)]);
    expect(registry.lookups).toBe(5000);
    await decoder.prepare([unknown(1000), unknown(3000), framed(1, v1, { a: 1, b: 2, clicked: 1 })]);
    expect(registry.lookups).toBe(5003);
    expect(decoder.decode(unknown(1000), x, 0)).toBeUndefined();
    expect(decoder.failure.reason).toBe('unknown-schema');
  });

  it('refuses a reader schema that is not Avro when it is built', () => {
    expect(() => new AvroRecordDecoder({ dim: 1, task: 'regression' }, { registry: new InMemoryRegistry(new Map()), readerSchema: { type: 'recrod' } })).toThrow(ConfigError);
  });

  it('frames and unframes the wire format', () => {
    const bytes = confluentWireFormat.encode(258, Buffer.from([9]));
    expect([...bytes]).toEqual([0, 0, 0, 1, 2, 9]);
    expect(confluentWireFormat.schemaIdOf(bytes)).toBe(258);
    expect(confluentWireFormat.schemaIdOf(Buffer.from([1, 0, 0, 0, 1]))).toBeUndefined();
  });
});
