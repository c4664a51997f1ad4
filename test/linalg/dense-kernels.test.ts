import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShapeError } from '../../src/core/shape-error.js';
import { denseKernels } from '../../src/linalg/dense-kernels.js';
import { denseKernelsBinary } from '../../src/linalg/dense-kernels-binary.js';
import { gemmNt } from '../../src/linalg/gemm-nt.js';
import { gramAccumulateUpper } from '../../src/linalg/gram-accumulate-upper.js';
import { repoRoot } from '../helpers/reference.js';

function random(n: number, seed: number): Float64Array {
  let state = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  });
}

describe('the WebAssembly dense kernels', () => {
  it('src/ instantiates the module the package ships (dist/wasm/dense-kernels.wasm, built by npm run build)', () => {
    const shipped = readFileSync(join(repoRoot, 'dist', 'wasm', 'dense-kernels.wasm'));
    expect(denseKernelsBinary).toBe(shipped.toString('base64'));
    expect(WebAssembly.validate(shipped)).toBe(true);
  });

  it('operands larger than the module memory grow it, and calls before and after the growth give the plain sums bit for bit', () => {
    const small = random(8 * 5, 1);
    const smallOut = new Float64Array(8 * 8);
    gemmNt(smallOut, 8, small, small, 8, 8, 5, false);
    const m = 700;
    const n = 400;
    const x = random(m * n, 2);
    const y = random(m * n, 3);
    const out = new Float64Array(m * m);
    gemmNt(out, m, x, y, m, m, n, false);
    for (const [i, j] of [[0, 0], [1, 698], [699, 3], [350, 351], [699, 699]]) {
      let sum = 0;
      for (let q = 0; q < n; q++) sum += x[i * n + q] * y[j * n + q];
      expect(out[i * m + j]).toBe(sum);
    }
    const again = new Float64Array(8 * 8);
    gemmNt(again, 8, small, small, 8, 8, 5, false);
    expect(again).toEqual(smallOut);
  });

  it('a region the module memory cannot grow to is a ShapeError (not retriable) that says how many bytes were asked, and the kernels still work after it', () => {
    const doubles = 2 ** 33;
    let error: unknown;
    try {
      denseKernels.reserve(doubles);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ShapeError);
    expect((error as ShapeError).retriable).toBe(false);
    expect((error as ShapeError).message).toContain(`${doubles * 8} bytes`);
    const x = random(6 * 3, 4);
    const out = new Float64Array(6 * 6);
    gemmNt(out, 6, x, x, 6, 6, 3, false);
    expect(out[1 * 6 + 4]).toBe(x[3] * x[12] + x[4] * x[13] + x[5] * x[14]);
  });

  it('gramAccumulateUpper with alpha and weights adds (alpha·w_r·x_ri)·x_rj row by row, at every d mod 4', () => {
    for (const d of [1, 2, 3, 4, 5, 7, 9, 13]) {
      const n = 70;
      const x = random(n * d, d);
      const w = random(n, d + 1).map((v) => v + 1);
      const out = random(d * d, d + 2);
      const expected = out.slice();
      for (let r = 0; r < n; r++) {
        for (let i = 0; i < d; i++) {
          const s = 0.75 * w[r] * x[r * d + i];
          for (let j = i; j < d; j++) expected[i * d + j] += s * x[r * d + j];
        }
      }
      gramAccumulateUpper(x, n, d, out, w, 0.75);
      expect(out, `d = ${d}`).toEqual(expected);
    }
  });
  it('gramAccumulateUpper with y and xty also adds (alpha·w_r·y_r)·x_rj to xty row by row, bit for bit, at every d mod 2, with and without weights', () => {
    for (const d of [1, 2, 3, 5, 8, 33]) {
      const n = 41;
      const x = random(n * d, 10 + d);
      const y = random(n, 20 + d);
      for (const w of [undefined, random(n, 30 + d).map((v) => v + 1)]) {
        const xty = random(d, 40 + d);
        const expected = xty.slice();
        for (let r = 0; r < n; r++) {
          const c = (w === undefined ? 1.5 : 1.5 * w[r]) * y[r];
          for (let j = 0; j < d; j++) expected[j] += c * x[r * d + j];
        }
        const out = new Float64Array(d * d);
        const gramOnly = new Float64Array(d * d);
        gramAccumulateUpper(x, n, d, out, w, 1.5, y, xty);
        gramAccumulateUpper(x, n, d, gramOnly, w, 1.5);
        expect(xty, `d = ${d}`).toEqual(expected);
        expect(out, `d = ${d}`).toEqual(gramOnly);
      }
    }
  });

});
