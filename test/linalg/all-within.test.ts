import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allWithin } from '../../src/linalg/all-within.js';
import { denseKernels } from '../../src/linalg/dense-kernels.js';
import { gramAccumulate } from '../../src/linalg/gram-accumulate.js';
import { createModel } from '../../src/registry.js';
import { linearData } from '../helpers/synthetic-data.js';

const within = (values: Float64Array, length: number, max: number) => values.subarray(0, length).every((v) => Math.abs(v) <= max);
const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

describe('allWithin (the batch check, in the dense kernels from 1,024 values)', () => {
  it('says what |v| ≤ max for every value says, NaN and ±∞ anywhere, at lengths on both sides of the kernel and of its eight-value steps', () => {
    const special = fc.constantFrom(NaN, Infinity, -Infinity, 1e12, -1e12, 1.0000000000000002e12, -0, Number.MAX_VALUE);
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 3000 }), fc.array(fc.tuple(fc.nat(), special), { maxLength: 3 }), fc.constantFrom(1e12, Infinity, 0.5), fc.boolean(),
      (length, bad, max, stage) => {
        const values = Float64Array.from({ length: length + 5 }, (_, k) => Math.sin(k) * 0.4);
        for (const [at, v] of bad) values[at % values.length] = v;
        expect(allWithin(values, length, max, stage)).toBe(within(values, length, max));
        denseKernels.unstage();
      }), { numRuns: 300 });
  });

  it('a staged X serves the next XᵀX; after an unstage, a reserve or a write the XᵀX reads the array again', () => {
    const n = 50;
    const d = 30;
    const { x } = linearData(n, d, 5);
    // The XᵀX of the values x holds now, from a copy (another array, never staged).
    const want = () => { const out = new Float64Array(d * d); gramAccumulate(x.slice(), n, d, out); return bits(out); };
    const got = () => { const out = new Float64Array(d * d); gramAccumulate(x, n, d, out); return bits(out); };
    expect(allWithin(x, n * d, 1e12, true)).toBe(true);
    expect(got()).toEqual(want());
    for (const [k, forget] of [() => denseKernels.unstage(), () => denseKernels.reserve(10), () => denseKernels.write(denseKernels.reserve(4), new Float64Array(4), 4)].entries()) {
      expect(allWithin(x, n * d, 1e12, true)).toBe(true);
      forget();
      x[7 + k] += 1.5;
      expect(got()).toEqual(want());
    }
  });

  it('a model update leaves nothing staged: the caller may change its batch and use the kernels directly', () => {
    const n = 200;
    const d = 20;
    const { x, y } = linearData(n, d, 6);
    createModel('vb-linear', d).update({ x, y, n, d });
    x.fill(0.5);
    const out = new Float64Array(d * d);
    gramAccumulate(x, n, d, out);
    expect(out[0]).toBe(n * 0.25);
  });
});
