import { cholesky } from '../linalg/cholesky.js';
import type { JsonValue, ModelSnapshot } from './model-snapshot.js';
import { NumericalError } from './numerical-error.js';
import { SnapshotError } from './snapshot-error.js';
import type { SnapshotProblem } from './snapshot-problem.js';

/** The first header number that is not finite (JSON reads `1e999` as Infinity), with its path. */
function headerProblem(value: JsonValue, path: string): SnapshotProblem | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { field: path, reason: 'must be finite', value };
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const problem = headerProblem(inner, `${path}.${key}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The first entry of `values` (a number counts as one entry) that `ok` refuses. */
function firstEntry(field: string, values: ArrayLike<number> | number, ok: (v: number) => boolean, reason: string): SnapshotProblem | undefined {
  if (typeof values === 'number') return ok(values) ? undefined : { field, reason, value: values };
  for (let i = 0; i < values.length; i++) if (!ok(values[i])) return { field, reason, index: i, value: values[i] };
  return undefined;
}

/**
 * The checks a snapshot passes before it becomes a model (see `defineFamily`'s restore): each returns
 * the first {@link SnapshotProblem} or `undefined`, so a family's invariants chain with `??`.
 */
export const snapshotChecks = {
  /**
   * Every array entry finite and every header number finite; a NaN is allowed only at the entries
   * `notYetComputed` names (array → indices: markers such as "no objective yet").
   */
  finite(snapshot: ModelSnapshot, notYetComputed: { readonly [array: string]: readonly number[] } = {}): SnapshotProblem | undefined {
    for (const [name, array] of Object.entries(snapshot.arrays)) {
      const markers = Object.hasOwn(notYetComputed, name) ? notYetComputed[name] : [];
      for (let i = 0; i < array.length; i++) {
        const v = array[i];
        if (!Number.isFinite(v) && !(Number.isNaN(v) && markers.includes(i))) return { field: name, reason: 'must hold finite values', index: i, value: v };
      }
    }
    return headerProblem(snapshot.header as JsonValue, 'header');
  },

  /** Every entry > 0 (variances, precisions, noise levels). */
  positive(field: string, values: ArrayLike<number> | number): SnapshotProblem | undefined {
    return firstEntry(field, values, (v) => v > 0, 'must be positive');
  },

  /** Every entry ≥ 0 (counts). */
  nonNegative(field: string, values: ArrayLike<number> | number): SnapshotProblem | undefined {
    return firstEntry(field, values, (v) => v >= 0, 'must not be negative');
  },

  /** Every diagonal entry of a d×d Cholesky factor > 0. */
  positiveDiagonal(field: string, factor: Float64Array, d: number): SnapshotProblem | undefined {
    for (let i = 0; i < d; i++) if (!(factor[i * d + i] > 0)) return { field, reason: 'must have a positive diagonal (a Cholesky factor)', index: i * d + i, value: factor[i * d + i] };
    return undefined;
  },

  /**
   * A symmetric d×d matrix is positive definite: the Cholesky factorisation of the triangle its family
   * keeps current (`lower`, or `upper` where per-record updates write only that one) succeeds, with no
   * more jitter than the models' own factorisations may add (`cholesky`'s defaults). With `keep`,
   * only the rows and columns it keeps (ARD's unpruned weights).
   */
  positiveDefinite(field: string, matrix: Float64Array, d: number, options: { readonly triangle?: 'lower' | 'upper'; readonly keep?: (i: number) => boolean } = {}): SnapshotProblem | undefined {
    const kept = Array.from({ length: d }, (_, i) => i).filter(options.keep ?? (() => true));
    const upper = options.triangle === 'upper';
    const n = kept.length;
    const sub = new Float64Array(n * n);
    for (let r = 0; r < n; r++) for (let c = 0; c <= r; c++) sub[r * n + c] = upper ? matrix[kept[c] * d + kept[r]] : matrix[kept[r] * d + kept[c]];
    try {
      cholesky(sub, n, new Float64Array(n * n));
    } catch (error) {
      if (!(error instanceof NumericalError)) throw error;
      const diagonal = firstEntry(field, kept.map((i) => matrix[i * d + i]), (v) => v > 0, '');
      return { field, reason: 'is not positive definite (its Cholesky factorisation fails)', ...(diagonal === undefined ? {} : { index: kept[diagonal.index as number] * (d + 1), value: diagonal.value }) };
    }
    return undefined;
  },

  /** The error `restore` throws for a problem: `<family> snapshot: array "V" … at index i (value v)`. */
  refusal(family: string, problem: SnapshotProblem): SnapshotError {
    const where = problem.index === undefined ? '' : ` at index ${problem.index}`;
    const value = problem.value === undefined ? '' : ` (value ${problem.value})`;
    return new SnapshotError(`${family} snapshot refused: "${problem.field}" ${problem.reason}${where}${value}`, { field: problem.index === undefined ? problem.field : `${problem.field}[${problem.index}]` });
  },
};
