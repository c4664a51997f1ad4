import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { vbLinearArdFamily, vbLinearFamily } from '../../src/models/vb-linear/index.js';
import { Rng } from '../../src/rng/rng.js';
import { linearData, rows } from '../helpers/synthetic-data.js';

/** 25 standard-normal features, the first 5 relevant, noise sd 0.5 (seeded). */
function sparseData(n: number, seed: number) {
  const d = 25;
  const truth = new Float64Array(d);
  truth.set([1.5, -2, 0.8, 3, -1.2]);
  const rng = Rng.fromSeed(seed);
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { const v = rng.normal(); x[r * d + j] = v; s += truth[j] * v; }
    y[r] = s + 0.5 * rng.normal();
  }
  return { x, y, n, d, truth };
}

describe('vb-linear warm start (issue 16)', () => {
  for (const [name, family] of [['vb-linear', vbLinearFamily], ['vb-linear-ard', vbLinearArdFamily]] as const) {
    it(`${name}: test-then-train refits start from the last E[α], take fewer passes and agree with a fit from scratch`, () => {
      const d = 6;
      const data = linearData(160, d, 21);
      const model = family.create(d);
      model.update(rows(data, 0, 2 * d));
      let warmPasses = 0;
      let coldPasses = 0;
      for (let r = 2 * d; r < 160; r++) {
        const warm = model.posterior();
        const cold = model.clone().posterior();
        warmPasses += warm.iterations;
        coldPasses += cold.iterations;
        expect(warm.stopReason).toBe('converged');
        // Within the fit's own tolerance: the bounds agree (the warm one is the better as often as not).
        expect(Math.abs(warm.L - cold.L)).toBeLessThan(1e-4 * Math.abs(cold.L));
        for (let j = 0; j < d; j++) expect(Math.abs(warm.w[j] - cold.w[j])).toBeLessThan(1e-2 * Math.max(1, Math.abs(cold.w[j])));
        const before = encodeSnapshot(model.snapshot());
        model.predict(data.x, r * d);
        expect(encodeSnapshot(model.snapshot())).toEqual(before);
        model.update(rows(data, r, r + 1));
      }
      expect(warmPasses).toBeLessThan(coldPasses);
    });
  }

  it('a fresh, cloned or restored model fits from scratch: bit-identical to a model never read', () => {
    const data = linearData(60, 4, 5);
    const read = vbLinearFamily.create(4);
    read.update(rows(data, 0, 30));
    read.posterior();
    read.update(rows(data, 30, 60));
    const fresh = vbLinearFamily.create(4);
    fresh.update(data);
    const restored = vbLinearFamily.restore(decodeSnapshot(encodeSnapshot(read.snapshot())).snapshot);
    expect(Array.from(read.clone().posterior().w)).toEqual(Array.from(fresh.posterior().w));
    expect(restored.posterior().L).toBe(fresh.posterior().L);
    expect(restored.posterior().iterations).toBe(fresh.posterior().iterations);
  });
});

describe('vb-linear-ard pruneThreshold (issue 16)', () => {
  const data = sparseData(2000, 16);

  it('prunes all 20 irrelevant weights of 25 to exactly 0 and keeps the 5 relevant ones close to truth', () => {
    const model = vbLinearArdFamily.create(25, { pruneThreshold: 200 });
    model.update(data);
    const p = model.posterior();
    expect(p.stopReason).toBe('converged');
    for (let j = 5; j < 25; j++) {
      expect(p.w[j]).toBe(0);
      expect(p.pruned[j]).toBe(1);
      for (let k = 0; k < 25; k++) { expect(p.V[j * 25 + k]).toBe(0); expect(p.V[k * 25 + j]).toBe(0); }
    }
    for (let j = 0; j < 5; j++) {
      expect(p.pruned[j]).toBe(0);
      expect(Math.abs(p.w[j] - data.truth[j])).toBeLessThan(0.05);
    }
    // Sampling, the summary and the predictive work on the kept weights; pruned draws are exactly 0.
    const draw = model.sample(Rng.fromSeed(3));
    for (let j = 5; j < 25; j++) expect(draw[j]).toBe(0);
    const summary = model.summary();
    expect(Number.isFinite(summary.logDetCovariance) && Number.isFinite(summary.conditionNumber)).toBe(true);
    expect(Number.isFinite(model.predict(data.x, 0).variance)).toBe(true);
  });

  it('without pruning (Infinity, the reference) the irrelevant weights are only shrunk; the default 1e4 prunes none at N = 2,000, where VB\'s E[α_i] of an irrelevant weight settles near N', () => {
    const off = vbLinearArdFamily.create(25, { pruneThreshold: Infinity });
    off.update(data);
    const byDefault = vbLinearArdFamily.create(25);
    byDefault.update(data);
    expect(Array.from(off.posterior().w).filter((v) => v === 0)).toHaveLength(0);
    expect(Array.from(byDefault.posterior().w)).toEqual(Array.from(off.posterior().w));
    for (let j = 5; j < 25; j++) expect(off.posterior().E_a[j]).toBeLessThan(1e4);
  });

  it('is kept by snapshots and emptyLike, and refused by vb-linear', () => {
    const model = vbLinearArdFamily.create(25, { pruneThreshold: 200 });
    model.update(data);
    const restored = vbLinearArdFamily.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    expect(Array.from(restored.posterior().w)).toEqual(Array.from(model.posterior().w));
    expect(model.emptyLike().snapshot().header).toEqual(vbLinearArdFamily.create(25, { pruneThreshold: 200 }).snapshot().header);
    expect(() => vbLinearFamily.create(3, { pruneThreshold: 1e4 })).toThrow(ConfigError);
    expect(() => vbLinearArdFamily.create(3, { pruneThreshold: 0 })).toThrow(ConfigError);
  });
});
