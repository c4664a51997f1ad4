import type { Task } from '../../src/core/task.js';

/**
 * How a record's value maps to features and label. JSON: either `{"x":[x1..xd],"y":label}` (no
 * `features`) or an object with one named field per feature (`features`, in order) and the label
 * field (`label`, default `"y"`). Avro records map the same way (see `AvroRecordDecoder`).
 */
export interface RecordSchema {
  /** Number of features (the model's width, the intercept included). */
  readonly dim: number;
  /** A constant 1 as feature 0, before the record's features (then `dim` − 1 of them); default false. */
  readonly intercept?: boolean | undefined;
  /** Named feature fields, in model order; absent means the record carries an `x` array. */
  readonly features?: readonly string[] | undefined;
  /** Label field; default `"y"`. */
  readonly label?: string | undefined;
  /** Field holding each record's likelihood weight (finite, non-negative; default 1 when absent); none by default. */
  readonly weight?: string | undefined;
  /** What the label must be: any finite number, 0/1/−1, or a non-negative integer. */
  readonly task: Task;
  /** Largest accepted value in bytes; default 64 KiB. */
  readonly maxBytes?: number | undefined;
  /** Largest |value| of a feature, label or weight (`InputLimits.maxAbsInput`, default 1e12, at least 1); a larger one is dead-lettered as `out-of-range`. */
  readonly maxAbsInput?: number | undefined;
  /** Whether a label is required (learning) or optional (scoring); default true. */
  readonly requireLabel?: boolean | undefined;
}
