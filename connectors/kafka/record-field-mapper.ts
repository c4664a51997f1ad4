import { ConfigError } from '../../src/core/config-error.js';
import { maxAbsInputOf } from '../../src/core/max-abs-input-of.js';
import { outOfRangeReason } from '../../src/core/out-of-range-reason.js';
import type { DeadLetterReason } from './dead-letter-reason.js';
import type { RecordSchema } from './record-schema.js';
import type { DecodeFailure } from './value-decoder.js';

/**
 * Maps one decoded record (a JSON object, an Avro record) to features, label and weight as the
 * {@link RecordSchema} says, without allocating: everything the models' validation would refuse is
 * refused here first (magnitudes beyond `maxAbsInput` included, so such a record never costs an
 * update), with the reason and a detail naming the field and value. Shared by every value format.
 */
export class RecordFieldMapper {
  /** Set by a failed `map`: why, and a detail naming the field and value. */
  failure: DecodeFailure = { reason: 'empty', detail: '' };
  /** Set by a successful `map`: the record's weight (1 without a weight field). */
  weight = 1;
  private readonly labelField: string;
  /** Where the record's features start in x: after the intercept's constant 1, if any. */
  private readonly first: 0 | 1;
  private readonly maxAbsInput: number;
  /** The model's words for each out-of-range refusal, made once. */
  private readonly outOfRange: Readonly<Record<'feature' | 'label' | 'weight', string>>;

  constructor(readonly schema: RecordSchema) {
    if (!(Number.isInteger(schema.dim) && schema.dim > 0)) throw new ConfigError('schema.dim must be a positive integer', { field: 'dim', value: schema.dim });
    this.first = schema.intercept === true ? 1 : 0;
    if (schema.features !== undefined && schema.features.length !== schema.dim - this.first) {
      throw new ConfigError(`schema names ${schema.features.length} features but dim is ${schema.dim}${this.first === 1 ? ' with the intercept' : ''}`, { field: 'features', value: schema.features.length });
    }
    this.labelField = schema.label ?? 'y';
    this.maxAbsInput = maxAbsInputOf(schema.maxAbsInput);
    this.outOfRange = { feature: outOfRangeReason('feature', this.maxAbsInput), label: outOfRangeReason('label', this.maxAbsInput), weight: outOfRangeReason('weight', this.maxAbsInput) };
  }

  /**
   * Writes the record's features to `x[offset .. offset+dim)` and returns its label (NaN when the
   * label is absent and not required), or returns `undefined` after setting {@link failure}.
   */
  map(record: { readonly [field: string]: unknown }, x: Float64Array, offset: number): number | undefined {
    const first = this.first;
    const d = this.schema.dim - first;
    const names = this.schema.features;
    if (first === 1) x[offset] = 1;
    if (names === undefined) {
      const features = record.x;
      if (!Array.isArray(features)) return this.fail('bad-shape', 'field x is not an array');
      if (features.length !== d) return this.fail('wrong-width', `x has ${features.length} features, expected ${d}`);
      for (let j = 0; j < d; j++) {
        if (!this.feature(features[j], j, x, offset + first + j)) return undefined;
      }
    } else {
      for (let j = 0; j < d; j++) {
        if (!(names[j] in record)) return this.fail('bad-shape', `feature field ${names[j]} is missing`);
        if (!this.feature(record[names[j]], names[j], x, offset + first + j)) return undefined;
      }
    }
    const weightField = this.schema.weight;
    if (weightField === undefined) this.weight = 1;
    else {
      const w = record[weightField];
      if (w === undefined || w === null) this.weight = 1;
      else if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return this.fail('bad-shape', `weight ${weightField} is ${JSON.stringify(w) ?? String(w)}, not a finite non-negative number`);
      else if (w > this.maxAbsInput) return this.fail('out-of-range', `weight ${weightField} is ${w}; ${this.outOfRange.weight}`);
      else this.weight = w;
    }
    return this.label(record[this.labelField]);
  }

  /** Records a failure of the value itself (before field mapping) and returns `undefined`. */
  fail(reason: DeadLetterReason, detail: string): undefined {
    this.failure = { reason, detail };
    return undefined;
  }

  /**
   * Stores one feature (`field`: its field's name, or its index j in `x`, named `x[j]` only in a
   * failure, so that a good record makes no string); false (with {@link failure} set) when it is not
   * a finite number within `maxAbsInput`.
   */
  private feature(value: unknown, field: string | number, x: Float64Array, at: number): boolean {
    if (typeof value === 'number' && Math.abs(value) <= this.maxAbsInput) {
      x[at] = value;
      return true;
    }
    const name = typeof field === 'number' ? `x[${field}]` : field;
    if (typeof value !== 'number') this.fail('non-numeric', `${name} is ${JSON.stringify(value) ?? String(value)}, not a number`);
    else if (!Number.isFinite(value)) this.fail('non-finite', `${name} is ${value}`);
    else this.fail('out-of-range', `${name} is ${value}; ${this.outOfRange.feature}`);
    return false;
  }

  private label(value: unknown): number | undefined {
    const field = this.labelField;
    if (value === undefined || value === null) return this.schema.requireLabel === false ? Number.NaN : this.fail('bad-label', `label ${field} is missing`);
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail('bad-label', `label ${field} is ${JSON.stringify(value) ?? String(value)}, not a finite number`);
    const task = this.schema.task;
    if (task === 'classification' && value !== 0 && value !== 1 && value !== -1) return this.fail('bad-label', `label ${field} is ${value}; binary labels are 0/1 or -1/1`);
    if (Math.abs(value) > this.maxAbsInput) return this.fail('out-of-range', `label ${field} is ${value}; ${this.outOfRange.label}`);
    if (task === 'count' && !(Number.isInteger(value) && value >= 0)) return this.fail('bad-label', `label ${field} is ${value}; counts are non-negative integers`);
    return value;
  }
}
