import { describe, expect, it } from 'vitest';
import { createModel } from '../../src/registry.js';
import { linearData } from '../helpers/synthetic-data.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

describe('vb-linear fits share their passes\' scratch', () => {
  // The factor and the kept blocks of an ARD pass live in one buffer per thread, kept between fits: a fit must
  // read only what its own passes wrote, whatever larger or pruned fit ran before it.
  it('a fit gives the same bits after fits of other sizes and other pruned sets left their values in the scratch', () => {
    const fit = (family: 'vb-linear' | 'vb-linear-ard', d: number, seed: number) => {
      const data = linearData(400, d, seed);
      for (let r = 0; r < data.n; r++) for (let j = d >> 1; j < d; j++) data.x[r * d + j] *= 1e-4;
      const model = createModel(family, d);
      for (let r = 0; r < data.n; r += 50) model.update({ x: data.x.subarray(r * d, (r + 50) * d), y: data.y.subarray(r, r + 50), n: 50, d });
      const { w, V, L } = model.posterior();
      return { w: bits(w), V: bits(V), L };
    };
    const first = fit('vb-linear-ard', 9, 3);
    const firstPlain = fit('vb-linear', 9, 3);
    fit('vb-linear-ard', 40, 4);
    fit('vb-linear', 33, 5);
    expect(fit('vb-linear-ard', 9, 3)).toEqual(first);
    expect(fit('vb-linear', 9, 3)).toEqual(firstPlain);
  });
});
