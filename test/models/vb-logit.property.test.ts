import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { InputError } from '../../src/core/input-error.js';
import { vbLogitFamily, vbLogitOnlineFamily } from '../../src/models/vb-logit/index.js';
import { VbLogitModel } from '../../src/models/vb-logit/model.js';
import { gemv } from '../../src/linalg/gemv.js';
import { expectClose } from '../helpers/close.js';
import { logisticData, rows } from '../helpers/synthetic-data.js';


describe('vb-logit-online', () => {
  it('V and V⁻¹ stay inverses and ln|V| stays consistent over 5,000 updates', () => {
    const data = logisticData(5000, 8, 1);
    const model = vbLogitOnlineFamily.create(8);
    model.update(data);
    const { V, invV } = model.posterior;
    const product = new Float64Array(8);
    const column = new Float64Array(8);
    let worst = 0;
    for (let j = 0; j < 8; j++) {
      for (let i = 0; i < 8; i++) column[i] = invV[i * 8 + j];
      gemv(V, 8, 8, column, product);
      for (let i = 0; i < 8; i++) worst = Math.max(worst, Math.abs(product[i] - (i === j ? 1 : 0)));
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('snapshot → bytes → restore is bit-exact and keeps learning identically', () => {
    const data = logisticData(300, 5, 2);
    const model = vbLogitOnlineFamily.create(5, { priorPrecision: 2 });
    model.update(rows(data, 0, 200));
    const restored = vbLogitOnlineFamily.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    model.update(rows(data, 200, 300));
    restored.update(rows(data, 200, 300));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
  });

  it('never produces NaN on finite input, even for extreme features', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.boolean()), { minLength: 1, maxLength: 30 }), (rows) => {
      const model = vbLogitOnlineFamily.create(2);
      model.update({ x: Float64Array.from(rows.flatMap(([a, b]) => [a, b])), y: Float64Array.from(rows.map((r) => (r[2] ? 1 : 0))), n: rows.length, d: 2 });
      for (const v of [...model.posterior.w, ...model.posterior.V, model.posterior.logDetV]) expect(Number.isFinite(v)).toBe(true);
      const p = model.predict(Float64Array.of(1, -1)).prob;
      expect(p >= 0 && p <= 1).toBe(true);
    }), { numRuns: 150 });
  });

  it('a bad label mid-batch throws with its row and leaves the model untouched', () => {
    const data = logisticData(10, 3, 4);
    const model = vbLogitOnlineFamily.create(3);
    model.update(rows(data, 0, 5));
    const before = encodeSnapshot(model.snapshot());
    const y = data.y.slice(5, 10);
    y[3] = 2;
    expect(() => model.update({ x: data.x.subarray(15, 30), y, n: 5, d: 3, firstRow: 6 })).toThrow('binary label must be 0/1 or -1/1 (row 9, column y, value 2)');
    expect(encodeSnapshot(model.snapshot())).toEqual(before);
  });

  it('merge with a fresh model and forget(1) are the identity; merge of halves is close to the sequential fit', () => {
    const data = logisticData(2000, 4, 5);
    const a = vbLogitOnlineFamily.create(4);
    a.update(rows(data, 0, 1000));
    const w = a.posteriorMean();
    a.merge(vbLogitOnlineFamily.create(4));
    expectClose(a.posteriorMean(), w, { rel: 1e-9, absOfMax: 1e-12 }, 'w');
    a.forget(1);
    expectClose(a.posteriorMean(), w, { rel: 1e-9, absOfMax: 1e-12 }, 'w');
    const b = vbLogitOnlineFamily.create(4);
    b.update(rows(data, 1000, 2000));
    a.merge(b);
    const all = vbLogitOnlineFamily.create(4);
    all.update(data);
    expectClose(a.posteriorMean(), all.posteriorMean(), { rel: 0.05, absOfMax: 0.02 }, 'merged vs sequential w');
    expect(a.recordsSeen).toBe(2000);
  });
});

describe('vb-logit (streaming VB across batches)', () => {
  it('a stream of batches stays close to the one-batch fit', () => {
    const data = logisticData(3000, 4, 6);
    const batch = VbLogitModel.create('vb-logit', 4, false);
    batch.update(data);
    const stream = VbLogitModel.create('vb-logit', 4, false);
    for (let at = 0; at < 3000; at += 500) stream.update(rows(data, at, at + 500));
    expectClose(stream.posteriorMean(), batch.posteriorMean(), { rel: 0.05, absOfMax: 0.02 }, 'w');
    expect(stream.recordsSeen).toBe(3000);
  });

  it('merge of two disjoint halves is close to the one-batch fit and snapshot round-trips bit-exactly', () => {
    const data = logisticData(3000, 4, 7);
    const a = VbLogitModel.create('vb-logit', 4, false);
    const b = VbLogitModel.create('vb-logit', 4, false);
    a.update(rows(data, 0, 1500));
    b.update(rows(data, 1500, 3000));
    a.merge(b);
    const all = VbLogitModel.create('vb-logit', 4, false);
    all.update(data);
    expectClose(a.posteriorMean(), all.posteriorMean(), { rel: 0.05, absOfMax: 0.02 }, 'w');
    const restored = vbLogitFamily.restore(decodeSnapshot(encodeSnapshot(a.snapshot())).snapshot);
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(a.snapshot()));
  });

  it('rejects a label outside the codings without touching the model', () => {
    const model = VbLogitModel.create('vb-logit-ard', 2, true);
    const before = encodeSnapshot(model.snapshot());
    expect(() => model.update({ x: Float64Array.of(1, 2, 3, 4), y: Float64Array.of(1, 0.5), n: 2, d: 2 })).toThrow(InputError);
    expect(encodeSnapshot(model.snapshot())).toEqual(before);
  });
});
