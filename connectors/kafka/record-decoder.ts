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
    if (!this.sized(value?.length ?? 0)) return undefined;
    if (!isUtf8(value as Buffer)) return this.mapper.fail('bad-json', 'value is not valid UTF-8');
    return this.parse((value as Buffer).toString('utf8'), x, offset);
  }

  /** {@link decode} of a value known to be ASCII, given as its text (one character per byte): the same answer without the UTF-8 check and decoding. */
  decodeAscii(text: string, x: Float64Array, offset: number): number | undefined {
    return this.sized(text.length) ? this.parse(text, x, offset) : undefined;
  }

  /** False, with the failure set, for a value of no bytes or of more than `maxBytes`. */
  private sized(bytes: number): boolean {
    if (bytes === 0) this.mapper.fail('empty', 'record has no value');
    else if (bytes > this.maxBytes) this.mapper.fail('oversize', `value is ${bytes} bytes, limit ${this.maxBytes}`);
    else return true;
    return false;
  }

  private parse(text: string, x: Float64Array, offset: number): number | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return this.mapper.fail('bad-json', error instanceof Error ? error.message : String(error));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return this.mapper.fail('bad-shape', 'value is not a JSON object');
    return this.mapper.map(parsed as { [field: string]: unknown }, x, offset);
  }
}
