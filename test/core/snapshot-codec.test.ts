import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSnapshot } from '../../src/core/check-snapshot.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)));

const sample: ModelSnapshot = {
  family: 'vb-linear', version: 1, dim: 2, header: { ard: false, prior: { a0: 0.01 } },
  arrays: { xtx: Float64Array.of(1, 2, 2, 5), xty: Float64Array.of(-0, Number.MIN_VALUE), scalars: Float64Array.of(3, 7, Number.NaN) },
};

describe('snapshot binary codec', () => {
  it('round-trips arbitrary float64 arrays bit for bit (NaN, -0, subnormals included)', () => {
    fc.assert(fc.property(fc.array(fc.float64Array({ maxLength: 40 }), { maxLength: 4 }), fc.string(), (arrays, family) => {
      const snapshot: ModelSnapshot = { family, version: 3, dim: 1, header: { note: family }, arrays: Object.fromEntries(arrays.map((a, i) => [`a${i}`, a])) };
      const { snapshot: back, meta } = decodeSnapshot(encodeSnapshot(snapshot, { offsets: [1, 2] }));
      expect(back.family).toBe(family);
      expect(back.header).toEqual({ note: family });
      expect(meta).toEqual({ offsets: [1, 2] });
      arrays.forEach((a, i) => expect(bits(back.arrays[`a${i}`])).toEqual(bits(a)));
    }));
  });

  it('refuses every single flipped byte with a SnapshotError', () => {
    const bytes = encodeSnapshot(sample);
    for (let i = 0; i < bytes.length; i++) {
      const corrupt = bytes.slice();
      corrupt[i] ^= 0x10;
      expect(() => decodeSnapshot(corrupt), `byte ${i}`).toThrow(SnapshotError);
    }
  });

  it('refuses every truncation with a SnapshotError', () => {
    const bytes = encodeSnapshot(sample);
    for (let length = 0; length < bytes.length; length++) expect(() => decodeSnapshot(bytes.subarray(0, length))).toThrow(SnapshotError);
  });

  it('checkSnapshot names the wrong family, version and array', () => {
    expect(() => checkSnapshot(sample, 'vb-logit', 1, {})).toThrow(/family "vb-linear", expected "vb-logit"/);
    expect(() => checkSnapshot(sample, 'vb-linear', 2, {})).toThrow(/version 1 is not supported/);
    expect(() => checkSnapshot(sample, 'vb-linear', 1, { xtx: 9 })).toThrow(/"xtx" has 4 values, expected 9/);
    expect(() => checkSnapshot(sample, 'vb-linear', 1, { w: 2 })).toThrow(/lacks array "w"/);
  });
});
