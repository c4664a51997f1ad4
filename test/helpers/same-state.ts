import { expect } from 'vitest';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';

/** Asserts two snapshots hold the same family, header and arrays, bit for bit (NaN and −0 included). */
export function expectSameState(actual: ModelSnapshot, expected: ModelSnapshot): void {
  expect(actual.family).toBe(expected.family);
  expect(actual.dim).toBe(expected.dim);
  expect(actual.header).toEqual(expected.header);
  expect(Object.keys(actual.arrays).sort()).toEqual(Object.keys(expected.arrays).sort());
  for (const [name, array] of Object.entries(expected.arrays)) {
    const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));
    expect(bits(actual.arrays[name]), name).toEqual(bits(array));
  }
}
