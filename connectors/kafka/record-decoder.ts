import { isUtf8 } from 'node:buffer';
import { ConfigError } from '../../src/core/config-error.js';
import type { FamilyDescriptor } from '../../src/core/family-descriptor.js';
import type { DeadLetterReason } from './dead-letter-reason.js';

/**
 * How a record's value maps to features and label. JSON: either `{"x":[x1..xd],"y":label}` (no
 * `features`) or an object with one named field per feature (`features`, in order) and the label
 * field (`label`, default `"y"`). Avro (via `avsc`) is not wired yet.
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
  readonly task: FamilyDescriptor['task'];
  /** Largest accepted value in bytes; default 64 KiB. */
  readonly maxBytes?: number;
  /** Whether a label is required (learning) or optional (scoring); default true. */
  readonly requireLabel?: boolean;
}

/** Why the last record failed, and the detail the dead letter carries. */
export interface DecodeFailure {
  readonly reason: DeadLetterReason;
  readonly detail: string;
}

/**
 * Decodes record values into a flat feature buffer without allocating per good record, and says
 * precisely why a bad one cannot be used (the reasons of {@link DeadLetterReason}). Everything the
 * models' `validateBatch` / `signedLabels` would refuse is refused here first, so a decoded batch
 * never makes an update throw.
 */
export class RecordDecoder {
  /** Set by a failed `decode`: why, and a detail naming the field and value. */
  failure: DecodeFailure = { reason: 'empty', detail: '' };
  /** Set by a successful `decode`: the record's weight (1 without a weight field). */
  weight = 1;
  private readonly labelField: string;
  private readonly maxBytes: number;

  constructor(readonly schema: RecordSchema) {
    if (!(Number.isInteger(schema.dim) && schema.dim > 0)) throw new ConfigError('schema.dim must be a positive integer', { field: 'dim', value: schema.dim });
    if (schema.features !== undefined && schema.features.length !== schema.dim) {
      throw new ConfigError(`schema names ${schema.features.length} features but dim is ${schema.dim}`, { field: 'features', value: schema.features.length });
    }
    this.labelField = schema.label ?? 'y';
    this.maxBytes = schema.maxBytes ?? 65_536;
    if (!(Number.isInteger(this.maxBytes) && this.maxBytes > 0)) throw new ConfigError('schema.maxBytes must be a positive integer', { field: 'maxBytes', value: this.maxBytes });
  }

  /**
   * Writes the record's features to `x[offset .. offset+dim)` and returns its label (NaN when the
   * label is absent and not required), or returns `undefined` after setting {@link failure}.
   */
  decode(value: Buffer | null, x: Float64Array, offset: number): number | undefined {
    if (value === null || value.length === 0) return this.fail('empty', 'record has no value');
    if (value.length > this.maxBytes) return this.fail('oversize', `value is ${value.length} bytes, limit ${this.maxBytes}`);
    if (!isUtf8(value)) return this.fail('bad-json', 'value is not valid UTF-8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(value.toString('utf8'));
    } catch (error) {
      return this.fail('bad-json', error instanceof Error ? error.message : String(error));
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return this.fail('bad-shape', 'value is not a JSON object');
    const record = parsed as Record<string, unknown>;
    const d = this.schema.dim;
    const names = this.schema.features;
    if (names === undefined) {
      const features = record.x;
      if (!Array.isArray(features)) return this.fail('bad-shape', 'field x is not an array');
      if (features.length !== d) return this.fail('wrong-width', `x has ${features.length} features, expected ${d}`);
      for (let j = 0; j < d; j++) {
        if (!this.feature(features[j], `x[${j}]`, x, offset + j)) return undefined;
      }
    } else {
      for (let j = 0; j < d; j++) {
        if (!(names[j] in record)) return this.fail('bad-shape', `feature field ${names[j]} is missing`);
        if (!this.feature(record[names[j]], names[j], x, offset + j)) return undefined;
      }
    }
    const weightField = this.schema.weight;
    if (weightField === undefined) this.weight = 1;
    else {
      const w = record[weightField];
      if (w === undefined) this.weight = 1;
      else if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return this.fail('bad-shape', `weight ${weightField} is ${JSON.stringify(w) ?? String(w)}, not a finite non-negative number`);
      else this.weight = w;
    }
    return this.label(record[this.labelField]);
  }

  /** Stores one feature; false (with {@link failure} set) when it is not a finite number. */
  private feature(value: unknown, name: string, x: Float64Array, at: number): boolean {
    if (typeof value !== 'number') this.fail('non-numeric', `${name} is ${JSON.stringify(value) ?? String(value)}, not a number`);
    else if (!Number.isFinite(value)) this.fail('non-finite', `${name} is ${value}`);
    else {
      x[at] = value;
      return true;
    }
    return false;
  }

  private label(value: unknown): number | undefined {
    const field = this.labelField;
    if (value === undefined) return this.schema.requireLabel === false ? Number.NaN : this.fail('bad-label', `label ${field} is missing`);
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail('bad-label', `label ${field} is ${JSON.stringify(value) ?? String(value)}, not a finite number`);
    const task = this.schema.task;
    if (task === 'classification' && value !== 0 && value !== 1 && value !== -1) return this.fail('bad-label', `label ${field} is ${value}; binary labels are 0/1 or -1/1`);
    if (task === 'count' && !(Number.isInteger(value) && value >= 0)) return this.fail('bad-label', `label ${field} is ${value}; counts are non-negative integers`);
    return value;
  }

  private fail(reason: DeadLetterReason, detail: string): undefined {
    this.failure = { reason, detail };
    return undefined;
  }
}
