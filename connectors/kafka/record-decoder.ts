import { isUtf8 } from 'node:buffer';
import { ConfigError } from '../../src/core/config-error.js';
import type { RecordSchema } from './record-schema.js';
import { RecordFieldMapper } from './record-field-mapper.js';
import type { DecodeFailure, ValueDecoder } from './value-decoder.js';

/**
 * The JSON value decoder: UTF-8 JSON objects mapped by {@link RecordFieldMapper}, without allocating
 * per good record, saying precisely why a bad one cannot be used (the reasons of `DeadLetterReason`).
 */
export class RecordDecoder implements ValueDecoder {
  private readonly mapper: RecordFieldMapper;
  private readonly maxBytes: number;

  constructor(readonly schema: RecordSchema) {
    this.mapper = new RecordFieldMapper(schema);
    this.maxBytes = schema.maxBytes ?? 65_536;
    if (!(Number.isInteger(this.maxBytes) && this.maxBytes > 0)) throw new ConfigError('schema.maxBytes must be a positive integer', { field: 'maxBytes', value: this.maxBytes });
  }

  get failure(): DecodeFailure {
    return this.mapper.failure;
  }

  get weight(): number {
    return this.mapper.weight;
  }

  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined {
    if (value === null || value.length === 0) return this.mapper.fail('empty', 'record has no value');
    if (value.length > this.maxBytes) return this.mapper.fail('oversize', `value is ${value.length} bytes, limit ${this.maxBytes}`);
    if (!isUtf8(value)) return this.mapper.fail('bad-json', 'value is not valid UTF-8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (error) {
      return this.mapper.fail('bad-json', error instanceof Error ? error.message : String(error));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return this.mapper.fail('bad-shape', 'value is not a JSON object');
    return this.mapper.map(parsed as { [field: string]: unknown }, x, offset);
  }
}
