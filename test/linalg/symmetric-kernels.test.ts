import { describe, expect, it } from 'vitest';
import { shermanMorrisonPairUpper } from '../../src/linalg/sherman-morrison-pair-upper.js';
import { quadraticForm } from '../../src/linalg/quadratic-form.js';
import { symmetricGemv } from '../../src/linalg/symmetric-gemv.js';
import { Rng } from '../../src/rng/rng.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

function random(length: number, seed: number): Float64Array {
  const rng = Rng.fromSeed(seed);
  return Float64Array.from({ length }, () => rng.normal());
}

/** The scalar dsymv loop on the upper triangle the kernel keeps the order of. */
function plainSymmetricGemv(a: Float64Array, n: number, x: Float64Array, xOffset: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const xi = x[xOffset + i];
    let sum = a[i * n + i] * xi;
    for (let j = i + 1; j < n; j++) {
      const v = a[i * n + j];
      sum += v * x[xOffset + j];
      out[j] += v * xi;
    }
    out[i] += sum;
  }
  return out;
}

const sizes = Array.from({ length: 101 }, (_, k) => k + 1);

describe('the symmetric kernels on an upper triangle', () => {
  it('symmetricGemv is bit for bit the scalar dsymv loop for n = 1…101, reads only the upper triangle, and overwrites out', () => {
    for (const n of sizes) {
      const a = random(n * n, n);
      const x = random(n + 3, n + 1000);
      const want = plainSymmetricGemv(a, n, x, 3);
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) a[i * n + j] = Number.NaN;
      const out = new Float64Array(n).fill(5);
      symmetricGemv(a, n, x, out, 3);
      expect(bits(out), `n = ${n}`).toEqual(bits(want));
    }
  });

  it('shermanMorrisonPairUpper is bit for bit u = B·x, q = xᵀu and the two rank-one updates of the scalar loops for n = 1…101, with u computed or given, upper triangles only', () => {
    for (const n of sizes) {
      const a = random(n * n, 3 * n);
      const b = random(n * n, 3 * n + 1);
      const x = random(n + 2, 3 * n + 2);
      const omega = 0.75;
      for (const given of [false, true]) {
        const u = given ? random(n, 3 * n + 3) : plainSymmetricGemv(b, n, x, 2);
        let q = 0;
        for (let i = 0; i < n; i++) q += x[2 + i] * u[i];
        const shrink = -omega / (1 + omega * q);
        const wantA = a.slice();
        const wantB = b.slice();
        for (let i = 0; i < n; i++) {
          const wxi = omega * x[2 + i];
          for (let j = i; j < n; j++) {
            wantA[i * n + j] += wxi * x[2 + j];
            wantB[i * n + j] += shrink * (u[i] * u[j]);
          }
        }
        const gotA = a.slice();
        const gotB = b.slice();
        const gotU = given ? u.slice() : new Float64Array(n).fill(9);
        const gotQ = shermanMorrisonPairUpper(gotA, omega, x, 2, gotB, gotU, n, given);
        expect(gotQ, `n = ${n}`).toBe(q);
        expect(bits(gotU), `n = ${n}`).toEqual(bits(u));
        expect(bits(gotA), `n = ${n}`).toEqual(bits(wantA));
        expect(bits(gotB), `n = ${n}`).toEqual(bits(wantB));
      }
    }
  });
});

describe('quadraticForm', () => {
  it('is bit for bit Σ_i x_i·(Σ_j A_ij·x_j) summed in order, for n = 1…101 and an offset x', () => {
    for (const n of sizes) {
      const a = random(n * n, 5 * n);
      const x = random(n + 1, 5 * n + 1);
      let want = 0;
      for (let i = 0; i < n; i++) {
        let row = 0;
        for (let j = 0; j < n; j++) row += a[i * n + j] * x[1 + j];
        want += x[1 + i] * row;
      }
      expect(quadraticForm(a, n, x, 1), `n = ${n}`).toBe(want);
    }
  });
});
