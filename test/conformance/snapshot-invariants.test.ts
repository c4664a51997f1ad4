import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { getFamily } from '../../src/registry.js';
import { taskRecords } from '../helpers/task-data.js';
import { CONFORMANCE_OPTIONS } from './conformance-settings.js';

/**
 * Restore checks beyond finiteness (issue 26, item 15): a snapshot whose numbers are finite but
 * whose covariance, precision or Cholesky factor is not one, or whose variances or counts are not
 * positive, is refused with a SnapshotError naming the family and the array — every value here is
 * finite, so only the family's invariants can catch it.
 */
const D = 3;

function trainedSnapshot(id: string): ModelSnapshot {
  const family = getFamily(id);
  const model = family.create(D, CONFORMANCE_OPTIONS[id]);
  const records = taskRecords(family.task, 30, D, 4);
  const x = new Float64Array(30 * D);
  records.forEach((r, i) => x.set(r.x, i * D));
  model.update({ x, y: Float64Array.from(records, (r) => r.y), n: 30, d: D });
  return model.snapshot();
}

/** The snapshot with `array[index]` (and its mirror entry, for a d×d matrix) set to `value`. */
function withEntry(snapshot: ModelSnapshot, array: string, index: number, value: number, mirror?: number): ModelSnapshot {
  const changed = snapshot.arrays[array].slice();
  changed[index] = value;
  if (mirror !== undefined) changed[mirror] = value;
  return { ...snapshot, arrays: { ...snapshot.arrays, [array]: changed } };
}

/**
 * Breaks a d×d symmetric positive-definite matrix two ways at weights k, k + 1 (the first not pruned
 * by ARD, whose rows are zero): a negative variance, and an off-diagonal pair 10× the diagonal
 * (indefinite, diagonal untouched). Returns them with the index of the negative variance.
 */
function indefinite(snapshot: ModelSnapshot, array: string): { negative: ModelSnapshot; offDiagonal: ModelSnapshot; index: number } {
  const m = snapshot.arrays[array];
  const k = Math.max(0, Array.from(snapshot.arrays.pruned ?? [0]).indexOf(0));
  const a = k * (D + 1);
  const b = (k + 1) * (D + 1);
  return { negative: withEntry(snapshot, array, a, -m[a]), offDiagonal: withEntry(snapshot, array, a + 1, 10 * Math.sqrt(m[a] * m[b]), a + D), index: a };
}

const covariances: [string, string[]][] = [
  ['vb-linear', ['V']], ['vb-linear-ard', ['V']], ['vb-logit', ['V', 'invV']], ['vb-logit-ard', ['V', 'invV']], ['vb-logit-online', ['V', 'invV']],
  ['pg-logit', ['priorCovariance', 'priorPrecision', 'precision', 'basePrecision']],
  ['adf-logit', ['priorCovariance', 'V']], ['adf-probit', ['priorCovariance', 'V']], ['adf-poisson', ['priorCovariance', 'V']],
];

const factors: [string, string[]][] = [
  ['pg-logit', ['factor']],
  ...['vi-per', 'vi-per-mf', 'vi-gh', 'vi-mc'].map((id): [string, string[]] => [id, ['priorFactor', 'factor', 'anchorFactor']]),
];

/** [family, array, index, value, the field the refusal names]: a variance, precision or count that is not positive. */
const positives: [string, string, number, number, string][] = [
  ['vb-linear', 'alpha', 0, 0, 'alpha'], ['vb-linear', 'scalars', 4, -1, 'an'], ['vb-linear', 'scalars', 5, 0, 'bn'],
  ['vb-linear-ard', 'alpha', 2, -3, 'alpha'], ['vb-logit-ard', 'expectedAlpha', 1, 0, 'expectedAlpha'],
  ['direct', 'noiseSupport', 3, 0, 'noiseSupport'], ['direct-bnn', 'noiseSupport', 0, -1e-4, 'noiseSupport'],
  ['vb-linear', 'scalars', 2, -1, 'records'], ['vb-logit-online', 'scalars', 2, -5, 'records'], ['direct-logit', 'scalars', 0, -1, 'records'],
  ['sparse-gp', 'scalars', 0, -1, 'records'], ['direct', 'scalars', 2, -1, 'records'],
];

/** The SnapshotError restoring `snapshot` gives (through its bytes unless `inMemory`: JSON has no Infinity). */
function refusal(id: string, snapshot: ModelSnapshot, inMemory = false): SnapshotError {
  let thrown: unknown;
  try {
    getFamily(id).restore(inMemory ? snapshot : decodeSnapshot(encodeSnapshot(snapshot)).snapshot);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(SnapshotError);
  expect((thrown as SnapshotError).message).toContain(`${id} snapshot`);
  return thrown as SnapshotError;
}

describe('restore checks the invariants of a family\'s state', () => {
  it.each(covariances)('%s: a covariance or precision that is not positive definite is refused, naming the array', (id, arrays) => {
    const snapshot = trainedSnapshot(id);
    expect(() => getFamily(id).restore(snapshot)).not.toThrow();
    for (const array of arrays) {
      const { negative, offDiagonal, index } = indefinite(snapshot, array);
      expect(refusal(id, negative).message).toMatch(new RegExp(`"${array}" is not positive definite.* at index ${index} \\(value -`));
      expect(refusal(id, offDiagonal).message).toContain(`"${array}" is not positive definite`);
    }
  });

  it.each(factors)('%s: a Cholesky factor with a diagonal entry that is not positive is refused, naming the array and index', (id, arrays) => {
    const snapshot = trainedSnapshot(id);
    for (const array of arrays) {
      const index = 2 * (D + 1);
      expect(refusal(id, withEntry(snapshot, array, index, 0)).message).toContain(`"${array}" must have a positive diagonal (a Cholesky factor) at index ${index} (value 0)`);
    }
  });

  it.each(positives)('%s: %s[%i] = %d is refused as "%s"', (id, array, index, value, field) => {
    const message = refusal(id, withEntry(trainedSnapshot(id), array, index, value)).message;
    expect(message).toMatch(new RegExp(`"${field}" must (be positive|not be negative)`));
    expect(message).toContain(`(value ${value})`);
  });

  it('vb-linear: a valid snapshot taken between refits, whose V is current only in its upper triangle, restores', () => {
    // d = 8 and one record per update: past the early stream (N ≥ 2d) a batch below d/4 records is learned by Sherman–Morrison, which keeps only V's upper triangle current.
    const d = 8;
    const model = getFamily('vb-linear').create(d);
    const n = 3 * d;
    for (let i = 0; i < n; i++) model.update({ x: Float64Array.from({ length: d }, (_, j) => (j === 0 ? 1 : Math.sin(i * (j + 1)))), y: Float64Array.of(Math.cos(i)), n: 1, d });
    const V = model.snapshot().arrays.V;
    expect(V[1]).not.toBe(V[d]);
    expect(getFamily('vb-linear').restore(model.snapshot()).recordsSeen).toBe(n);
  });

  it('a header number that is not finite (JSON 1e999) is refused, naming its path', () => {
    const snapshot = trainedSnapshot('vb-linear');
    const bad = { ...snapshot, header: { ...snapshot.header, prior: { ...(snapshot.header.prior as object), a0: Infinity } } };
    expect(refusal('vb-linear', bad as ModelSnapshot, true).message).toContain('"header.prior.a0" must be finite');
  });
});
