import { closestName } from '../src/core/closest-name.js';
import { featureProblem } from '../src/core/feature-problem.js';
import { InputError } from '../src/core/input-error.js';
import { ShapeError } from '../src/core/shape-error.js';

/** What a service predicts from: its features and limits. */
export interface PredictRequestShape {
  readonly dim: number;
  /** Names of the features by position (the pipeline schema's), for `{"features": {...}}` bodies; none: positional only. */
  readonly features?: readonly string[];
  /** Bound on |feature| (the models' `maxAbsInput`). */
  readonly maxAbsInput: number;
  /** Most rows of a batch. */
  readonly maxRows: number;
  /** Interval level when the request gives none. */
  readonly level: number;
}

/** A parsed predict request: `count` rows of `dim` features in one flat array, the interval level, and whether it was a batch. */
export interface PredictRequest {
  /** The request's own values, but possibly a view of a buffer other requests' rows share: copy them before transferring their buffer. */
  readonly rows: Float64Array;
  readonly count: number;
  readonly level: number;
  readonly batch: boolean;
}

const isObject = (value: unknown): value is { readonly [key: string]: unknown } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Doubles of the block that requests' rows are cut from (64 KiB): a typed array over an existing buffer costs a tenth of a new one. */
const BLOCK = 8_192;

const BODY_FIELDS: readonly string[] = ['x', 'features', 'rows', 'level'];
const ROW_FIELDS: readonly string[] = ['x', 'features'];

/** Refuses a key of `object` not in `known` (a typo such as `levl` would otherwise be ignored), naming it under `prefix`. */
function refuseUnknownFields(object: { readonly [key: string]: unknown }, known: readonly string[], prefix: string, what: string): void {
  for (const key in object) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new InputError(`unknown field "${key}"; ${near === undefined ? '' : `did you mean "${near}"? `}${what} takes: ${known.join(', ')}`, { field: `${prefix}${key}` });
  }
}

/**
 * Reads a `POST /predict` body: `{"x": [x₁, …, x_d]}`, `{"features": {"name": value, …}}` (every
 * feature named once, as the pipeline schema names them), or `{"rows": [row, …]}` with at most
 * `maxRows` rows, each an array (its x) or an object of either form; `level` in (0, 1) optional.
 * Any other field, or anything else, throws a typed error whose `location.field` names the place: `x`, `x[3]`,
 * `features.age`, `rows[2].features.age`, `rows`, `level` — a `ShapeError` for a wrong width, an
 * `InputError` for a value that is not a number, not finite or beyond `maxAbsInput`, an unknown or
 * missing feature, an unknown field, a bad level, an empty or too large batch.
 */
export class PredictRequestParser {
  private readonly index: ReadonlyMap<string, number> | undefined;
  /** Where the next request's rows are cut from, and how many of its doubles are taken. */
  private block = new ArrayBuffer(0);
  private taken = BLOCK;

  constructor(readonly shape: PredictRequestShape) {
    if (shape.features !== undefined) {
      if (shape.features.length !== shape.dim) throw new ShapeError(`${shape.features.length} feature names for ${shape.dim} features`, { field: 'features', value: shape.features.length });
      this.index = new Map(shape.features.map((name, j) => [name, j]));
      if (this.index.size !== shape.dim) throw new ShapeError('feature names repeat', { field: 'features' });
    }
  }

  parse(body: { readonly [key: string]: unknown }): PredictRequest {
    const { dim, maxRows } = this.shape;
    refuseUnknownFields(body, BODY_FIELDS, '', 'a body');
    const level = this.levelOf(body.level);
    const forms = (body.x !== undefined ? 1 : 0) + (body.features !== undefined ? 1 : 0) + (body.rows !== undefined ? 1 : 0);
    if (forms !== 1) {
      throw new InputError(`the body needs exactly one of "x" (an array of ${dim} numbers), "features" (an object of named features) or "rows" (an array of either)`, { field: 'body' });
    }
    if (body.rows === undefined) {
      const rows = this.rowsOf(dim);
      this.readRow(body, rows, 0, '');
      return { rows, count: 1, level, batch: false };
    }
    const list = body.rows;
    if (!Array.isArray(list) || list.length === 0) throw new InputError('rows must be a non-empty array of rows', { field: 'rows' });
    if (list.length > maxRows) throw new InputError(`at most ${maxRows} rows per request, got ${list.length}`, { field: 'rows', value: list.length });
    const rows = this.rowsOf(list.length * dim);
    for (let i = 0; i < list.length; i++) {
      const row: unknown = list[i];
      if (Array.isArray(row)) this.readVector(row, rows, i * dim, `rows[${i}]`);
      else if (isObject(row)) {
        refuseUnknownFields(row, ROW_FIELDS, `rows[${i}].`, 'a row');
        if ((row.x === undefined) === (row.features === undefined)) throw new InputError('a row object needs exactly one of "x" and "features"', { field: `rows[${i}]` });
        this.readRow(row, rows, i * dim, `rows[${i}].`);
      } else throw new InputError('a row must be an array of numbers or an object with "x" or "features"', { field: `rows[${i}]`, value: row });
    }
    return { rows, count: list.length, level, batch: true };
  }

  /**
   * `length` doubles of a request's own, cut from a block shared with other requests (a larger
   * request gets an array of its own): a request keeping its rows keeps its block's 64 KiB.
   */
  private rowsOf(length: number): Float64Array {
    if (length > BLOCK / 8) return new Float64Array(length);
    if (this.taken + length > BLOCK) {
      this.block = new ArrayBuffer(BLOCK * Float64Array.BYTES_PER_ELEMENT);
      this.taken = 0;
    }
    const rows = new Float64Array(this.block, this.taken * Float64Array.BYTES_PER_ELEMENT, length);
    this.taken += length;
    return rows;
  }

  private levelOf(value: unknown): number {
    if (value === undefined) return this.shape.level;
    if (typeof value !== 'number' || !(value > 0 && value < 1)) throw new InputError('level must be a number between 0 and 1 (exclusive)', { field: 'level', value });
    return value;
  }

  /** One row given as `{x}` or `{features}`, into `out` from `offset`; `prefix` places it (`rows[2].`). */
  private readRow(row: { readonly [key: string]: unknown }, out: Float64Array, offset: number, prefix: string): void {
    if (row.x !== undefined) {
      if (!Array.isArray(row.x)) throw new InputError(`x must be an array of ${this.shape.dim} numbers`, { field: `${prefix}x`, value: row.x });
      this.readVector(row.x, out, offset, `${prefix}x`);
    } else this.readNamed(row.features, out, offset, `${prefix}features`);
  }

  private readVector(values: readonly unknown[], out: Float64Array, offset: number, field: string): void {
    const { dim } = this.shape;
    if (values.length !== dim) throw new ShapeError(`${field} has ${values.length} values, the model has ${dim} features`, { field, value: values.length });
    for (let j = 0; j < dim; j++) out[offset + j] = this.feature(values[j], field, j);
  }

  private readNamed(features: unknown, out: Float64Array, offset: number, field: string): void {
    const names = this.shape.features;
    const index = this.index;
    if (names === undefined || index === undefined) throw new InputError('this service has no feature names: send "x" (the features by position)', { field });
    if (!isObject(features)) throw new InputError('features must be an object of named features', { field, value: features });
    let seen = 0;
    for (const name in features) {
      const j = index.get(name);
      if (j === undefined) {
        const near = closestName(name, names);
        throw new InputError(`unknown feature "${name}"; ${near === undefined ? '' : `did you mean "${near}"? `}the model's features: ${names.join(', ')}`, { field: `${field}.${name}` });
      }
      out[offset + j] = this.feature(features[name], field, name);
      seen++;
    }
    if (seen < names.length) {
      const missing = names.filter((name) => !Object.hasOwn(features, name));
      throw new InputError(`feature "${missing[0]}" is missing${missing.length > 1 ? ` (and ${missing.length - 1} more: ${missing.slice(1).join(', ')})` : ''}`, { field: `${field}.${missing[0]}` });
    }
  }

  /** `value` when it is a feature; else throws naming it `field[key]` (a position) or `field.key` (a name), a place built only then. */
  private feature(value: unknown, field: string, key: number | string): number {
    if (typeof value === 'number' && featureProblem(value, this.shape.maxAbsInput) === undefined) return value;
    const where = typeof key === 'number' ? `${field}[${key}]` : `${field}.${key}`;
    throw new InputError(typeof value === 'number' ? featureProblem(value, this.shape.maxAbsInput)! : 'feature must be a number', { field: where, value });
  }
}
