import avro from 'avsc';
import { ConfigError } from '../../src/core/config-error.js';
import { confluentWireFormat } from './confluent-wire-format.js';
import type { RecordSchema } from './record-schema.js';
import { RecordFieldMapper } from './record-field-mapper.js';
import type { SchemaRegistry } from './schema-registry.js';
import type { DecodeFailure, DecoderFactory, ValueDecoder } from './value-decoder.js';

/** Avro settings of a Kafka source. */
export interface AvroDecoderOptions {
  /** Where the writer schemas named by the values' schema ids are looked up (cached per id). */
  readonly registry: SchemaRegistry;
  /**
   * The schema the pipeline reads with (Avro JSON, object or text). Values written with an older or
   * newer compatible schema are resolved to it (added fields take their defaults, removed ones are
   * dropped: Avro schema evolution). Absent: each value is read with its own writer schema.
   */
  readonly readerSchema?: object | string;
}

interface Reader {
  readonly type: avro.Type;
  readonly resolver?: avro.Resolver;
}

function parseSchema(schema: object | string, field: string): avro.Type {
  try {
    return avro.Type.forSchema((typeof schema === 'string' ? JSON.parse(schema) : schema) as avro.Schema);
  } catch (cause) {
    throw new ConfigError(`not a valid Avro schema: ${(cause as Error).message}`, { field }, { cause });
  }
}

/**
 * The Avro value decoder for topics written with a Confluent-compatible Schema Registry: each value
 * is `0x00 · schema id · Avro binary`; the writer schema is fetched once per id (in `prepare`),
 * resolved against the reader schema, and the decoded record mapped to features, label and weight
 * exactly as JSON records are ({@link RecordFieldMapper}: named feature fields, or an array `x`).
 * Values that are not framed, name an id the registry does not know, or do not decode go to the
 * dead letters (`bad-avro`, `unknown-schema`); nothing is allocated beyond Avro's own record object.
 */
export class AvroRecordDecoder implements ValueDecoder {
  private readonly mapper: RecordFieldMapper;
  private readonly readers = new Map<number, Reader | string>();
  private readonly readerType: avro.Type | undefined;
  private readonly maxBytes: number;

  constructor(readonly schema: RecordSchema, private readonly options: AvroDecoderOptions) {
    this.mapper = new RecordFieldMapper(schema);
    this.maxBytes = schema.maxBytes ?? 65_536;
    this.readerType = options.readerSchema === undefined ? undefined : parseSchema(options.readerSchema, 'readerSchema');
  }

  /** A {@link DecoderFactory} for a pipeline: `avroRecordDecoder({ registry, readerSchema })`. */
  static factory(options: AvroDecoderOptions): DecoderFactory {
    return (schema) => new AvroRecordDecoder(schema, options);
  }

  get failure(): DecodeFailure {
    return this.mapper.failure;
  }

  get weight(): number {
    return this.mapper.weight;
  }

  async prepare(values: readonly (Buffer | null)[]): Promise<void> {
    const missing = new Set<number>();
    for (const value of values) {
      const id = value === null ? undefined : confluentWireFormat.schemaIdOf(value);
      if (id !== undefined && !this.readers.has(id)) missing.add(id);
    }
    for (const id of missing) {
      const text = await this.options.registry.schemaById(id);
      this.readers.set(id, text === undefined ? `schema id ${id} is not in the registry` : this.readerFor(id, text));
    }
  }

  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined {
    if (value === null || value.length === 0) return this.mapper.fail('empty', 'record has no value');
    if (value.length > this.maxBytes) return this.mapper.fail('oversize', `value is ${value.length} bytes, limit ${this.maxBytes}`);
    const id = confluentWireFormat.schemaIdOf(value);
    if (id === undefined) return this.mapper.fail('bad-avro', 'value is not in the schema-registry wire format (magic byte 0, schema id, Avro)');
    const reader = this.readers.get(id);
    if (reader === undefined) return this.mapper.fail('unknown-schema', `schema id ${id} was not looked up (prepare was not called)`);
    if (typeof reader === 'string') return this.mapper.fail('unknown-schema', reader);
    let record: unknown;
    try {
      record = reader.type.fromBuffer(value.subarray(confluentWireFormat.headerBytes), reader.resolver);
    } catch (error) {
      return this.mapper.fail('bad-avro', `value does not decode with schema id ${id}: ${(error as Error).message}`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return this.mapper.fail('bad-shape', `schema id ${id} is not an Avro record`);
    return this.mapper.map(record as { [field: string]: unknown }, x, offset);
  }

  private readerFor(id: number, text: string): Reader | string {
    let writer: avro.Type;
    try {
      writer = avro.Type.forSchema(JSON.parse(text) as avro.Schema);
    } catch (error) {
      return `schema id ${id} is not a valid Avro schema: ${(error as Error).message}`;
    }
    if (this.readerType === undefined) return { type: writer };
    try {
      return { type: this.readerType, resolver: this.readerType.createResolver(writer) };
    } catch (error) {
      return `schema id ${id} cannot be read with the reader schema: ${(error as Error).message}`;
    }
  }
}
