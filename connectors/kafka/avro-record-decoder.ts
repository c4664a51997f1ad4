import avro from 'avsc';
import { ConfigError } from '../../src/core/config-error.js';
import { AvroSizeGuard } from './avro-size-guard.js';
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
  readonly readerSchema?: object | string | undefined;
}

interface Reader {
  readonly type: avro.Type;
  readonly resolver?: avro.Resolver;
  /** Checks a value's sizes against the writer schema before avsc reads it. */
  readonly guard: AvroSizeGuard;
}

/** How many of the schema ids the registry did not know are remembered (not asked again) between chunks, the most recent ones. */
const UNKNOWN_IDS_KEPT = 1024;

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
 *
 * Bounded work per value: a value is at most `maxBytes` long (else `oversize`), and before avsc
 * reads it, {@link AvroSizeGuard} proves that every array and map block count and every string and
 * bytes length it declares fits in its remaining bytes and that its arrays and maps hold at most
 * `maxBytes` items in all (items of no bytes, such as `null`, count too); a value that fails is
 * `bad-avro`. Of the schema ids the registry did not know, the last 1,024 (and those of the chunk
 * being decoded) are remembered, so a stream of random ids neither grows memory nor asks the
 * registry again for a recent one.
 */
export class AvroRecordDecoder implements ValueDecoder {
  private readonly mapper: RecordFieldMapper;
  /** Readers of the ids the registry knows (and the refusal of those that are not usable): bounded by what the registry holds. */
  private readonly readers = new Map<number, Reader | string>();
  /** Ids the registry did not know, least recently seen first (an LRU); trimmed to {@link UNKNOWN_IDS_KEPT} before each chunk's lookups. */
  private readonly unknown = new Set<number>();
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
      if (id === undefined || this.readers.has(id)) continue;
      if (this.unknown.delete(id)) this.unknown.add(id);
      else missing.add(id);
    }
    for (const id of this.unknown) {
      if (this.unknown.size <= UNKNOWN_IDS_KEPT) break;
      this.unknown.delete(id);
    }
    for (const id of missing) {
      const text = await this.options.registry.schemaById(id);
      if (text === undefined) this.unknown.add(id);
      else this.readers.set(id, this.readerFor(id, text));
    }
  }

  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined {
    if (value === null || value.length === 0) return this.mapper.fail('empty', 'record has no value');
    if (value.length > this.maxBytes) return this.mapper.fail('oversize', `value is ${value.length} bytes, limit ${this.maxBytes}`);
    const id = confluentWireFormat.schemaIdOf(value);
    if (id === undefined) return this.mapper.fail('bad-avro', 'value is not in the schema-registry wire format (magic byte 0, schema id, Avro)');
    const reader = this.readers.get(id);
    if (reader === undefined) return this.mapper.fail('unknown-schema', this.unknown.has(id) ? `schema id ${id} is not in the registry` : `schema id ${id} was not looked up (prepare was not called)`);
    if (typeof reader === 'string') return this.mapper.fail('unknown-schema', reader);
    const payload = value.subarray(confluentWireFormat.headerBytes);
    let record: unknown;
    try {
      const problem = reader.guard.problem(payload, this.maxBytes);
      if (problem !== undefined) return this.mapper.fail('bad-avro', `value does not decode with schema id ${id}: ${problem}`);
      record = reader.type.fromBuffer(payload, reader.resolver);
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
    const guard = new AvroSizeGuard(writer);
    if (this.readerType === undefined) return { type: writer, guard };
    try {
      return { type: this.readerType, resolver: this.readerType.createResolver(writer), guard };
    } catch (error) {
      return `schema id ${id} cannot be read with the reader schema: ${(error as Error).message}`;
    }
  }
}
