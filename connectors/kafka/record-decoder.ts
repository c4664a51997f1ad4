import { isUtf8 } from 'node:buffer';
import { ConfigError } from '../../src/core/config-error.js';
import type { Task } from '../../src/core/task.js';
import { RecordFieldMapper } from './record-field-mapper.js';
import type { DecodeFailure, ValueDecoder } from './value-decoder.js';

/**
 * How a record's value maps to features and label. JSON: either `{"x":[x1..xd],"y":label}` (no
 * `features`) or an object with one named field per feature (`features`, in order) and the label
 * field (`label`, default `"y"`). Avro records map the same way (see `AvroRecordDecoder`).
 */
export interface RecordSchema {
  /** Number of features. */
  readonly dim: number;
  /** Named feature fields, in model order; absent means the record carries an `x` array. */
  readonly features?: readonly string[];
  /** Label field; default `"y"`. */
  readonly label?: string;
  /** Field holding each record's likelihood weight (finite, non-negative; default 1 when absent); none by default. */
  readonly weight?: string;
  /** What the label must be: any finite number, 0/1/−1, or a non-negative integer. */
  readonly task: Task;
  /** Largest accepted value in bytes; default 64 KiB. */
  readonly maxBytes?: number;
  /** Whether a label is required (learning) or optional (scoring); default true. */
  readonly requireLabel?: boolean;
}

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
