import { describe, expect, it } from 'vitest';
import { accumulateRowPair } from '../../src/linalg/accumulate-row-pair.js';
import { accumulateRows } from '../../src/linalg/accumulate-rows.js';
import { lowerTransposedTimes } from '../../src/linalg/lower-transposed-times.js';
import { rowDots } from '../../src/linalg/row-dots.js';
import { rowDotsPair } from '../../src/linalg/row-dots-pair.js';
import { rowDotsRows } from '../../src/linalg/row-dots-rows.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

function random(length: number, seed: number): Float64Array {
  const rng = Rng.fromSeed(seed);
  return Float64Array.from({ length }, () => rng.normal());
}

/** A lower-triangular M×M matrix (zeros above the diagonal). */
function lower(M: number, seed: number): Float64Array {
  const l = random(M * M, seed);
  for (let a = 0; a < M; a++) for (let b = a + 1; b < M; b++) l[a * M + b] = 0;
  return l;
}

describe('row kernels (the sparse GP\'s products along rows)', () => {
  for (const M of [1, 3, 4, 7, 9, 13]) {
    const n = 11;
    it(`M = ${M}: accumulateRows and accumulateRowPair add the weighted rows, the pair bit for bit as two single rows`, () => {
      const src = random(M * n, 1);
      const coef = random(2 * M, 2);
      const single = random(2 * n, 3);
      const pair = single.slice();
      accumulateRows(single, 0, src, 0, M, n, coef, 0, 1, -0.5);
      accumulateRows(single, n, src, 0, M, n, coef, M, 1, -0.5);
      accumulateRowPair(pair, 0, n, src, 0, M, n, coef, 0, M, 1, -0.5);
      expect(bits(pair)).toEqual(bits(single));
      const start = random(2 * n, 3);
      const naive = Array.from({ length: n }, (_, i) => {
        let s = 0;
        for (let k = 0; k < M; k++) s += coef[k] * src[k * n + i];
        return start[i] - 0.5 * s;
      });
      expectClose(single.subarray(0, n), naive, { rel: 1e-12, abs: 1e-12 }, 'accumulateRows');
    });

    it(`M = ${M}: lowerTransposedTimes is Lᵀ·src, bit for bit one accumulateRows per row`, () => {
      const l = lower(M, 4);
      const src = random(M * n, 5);
      const out = new Float64Array(M * n);
      lowerTransposedTimes(out, src, l, M, n);
      const rows = new Float64Array(M * n);
      for (let a = 0; a < M; a++) accumulateRows(rows, a * n, src, a, M - a, n, l, a * M + a, M, 1);
      expect(bits(out)).toEqual(bits(rows));
      const naive = Array.from({ length: M * n }, (_, e) => {
        const a = Math.floor(e / n);
        let s = 0;
        for (let b = a; b < M; b++) s += l[b * M + a] * src[b * n + (e % n)];
        return s;
      });
      expectClose(out, naive, { rel: 1e-12, abs: 1e-12 }, 'Lᵀ·src');
    });

    it(`M = ${M}: rowDotsRows is X·Yᵀ (full or lower), bit for bit one rowDots per row; rowDotsPair likewise`, () => {
      const x = random(M * n, 6);
      const y = random(M * n, 7);
      for (const isLower of [false, true]) {
        const out = new Float64Array(M * M);
        rowDotsRows(x, y, M, M, n, out, M, isLower);
        const rows = new Float64Array(M * M);
        for (let a = 0; a < M; a++) rowDots(x, a * n, y, isLower ? a : M - 1, n, rows, a * M);
        expect(bits(out)).toEqual(bits(rows));
        for (let a = 0; a < M; a++) {
          for (let j = 0; j < M; j++) {
            let s = 0;
            for (let i = 0; i < n; i++) s += x[a * n + i] * y[j * n + i];
            if (!isLower || j <= a) expect(Math.abs(out[a * M + j] - s)).toBeLessThan(1e-12 * (1 + Math.abs(s)));
            else expect(out[a * M + j]).toBe(0);
          }
        }
      }
      if (M < 2) return;
      const pair = new Float64Array(2 * M);
      rowDotsPair(x, 0, y, M - 1, n, pair, 0, M);
      const single = new Float64Array(2 * M);
      rowDots(x, 0, y, M - 1, n, single, 0);
      rowDots(x, n, y, M - 1, n, single, M);
      expect(bits(pair)).toEqual(bits(single));
    });
  }
});
