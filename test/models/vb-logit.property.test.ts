import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { vbLogitArdFamily, vbLogitFamily, vbLogitOnlineFamily } from '../../src/models/vb-logit/index.js';
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

  it('merge with a fresh model is the identity; merge of halves is close to the sequential fit', () => {
    const data = logisticData(2000, 4, 5);
    const a = vbLogitOnlineFamily.create(4);
    a.update(rows(data, 0, 1000));
    const w = a.posteriorMean();
    a.merge(vbLogitOnlineFamily.create(4));
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
    const batch = vbLogitFamily.create(4);
    batch.update(data);
    const stream = vbLogitFamily.create(4);
    for (let at = 0; at < 3000; at += 500) stream.update(rows(data, at, at + 500));
    expectClose(stream.posteriorMean(), batch.posteriorMean(), { rel: 0.05, absOfMax: 0.02 }, 'w');
    expect(stream.recordsSeen).toBe(3000);
  });

  it('merge of two disjoint halves is close to the one-batch fit', () => {
    const data = logisticData(3000, 4, 7);
    const a = vbLogitFamily.create(4);
    const b = vbLogitFamily.create(4);
    a.update(rows(data, 0, 1500));
    b.update(rows(data, 1500, 3000));
    a.merge(b);
    const all = vbLogitFamily.create(4);
    all.update(data);
    expectClose(a.posteriorMean(), all.posteriorMean(), { rel: 0.05, absOfMax: 0.02 }, 'w');
    expect(a.recordsSeen).toBe(3000);
  });

  it('a fixed α is a vb-logit option only, and models with different fixed α do not merge', () => {
    expect(() => vbLogitArdFamily.create(2, { alpha: 1 })).toThrow(ConfigError);
    const fixed = vbLogitFamily.create(2, { alpha: 2 });
    expect(() => fixed.merge(vbLogitFamily.create(2, { alpha: 3 }))).toThrow(/different fixedAlpha/);
    expect(() => fixed.merge(vbLogitFamily.create(2))).toThrow(ConfigError);
  });
});
