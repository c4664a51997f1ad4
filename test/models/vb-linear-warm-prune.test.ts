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

describe('vb-linear per-record updates between refits (issue 16)', () => {
  for (const [name, family] of [['vb-linear', vbLinearFamily], ['vb-linear-ard', vbLinearArdFamily]] as const) {
    it(`${name}: test-then-train refits E[α] on the refitFraction schedule only, predict is pure, and the predictions stay close to the batch fit`, () => {
      const d = 6;
      const data = linearData(600, d, 21);
      // A tight tolerance, so the difference measured is that of holding E[α], not of where two fits stop.
      const options = { tol: 1e-10, maxIter: 20_000 };
      const model = family.create(d, options);
      model.update(rows(data, 0, 2 * d));
      let refits = 0;
      let alpha = Array.from(model.posterior().alpha);
      for (let r = 2 * d; r < 600; r++) {
        const before = encodeSnapshot(model.snapshot());
        const mean = model.predict(data.x, r * d).mean;
        expect(encodeSnapshot(model.snapshot())).toEqual(before);
        const batch = family.create(d, options);
        batch.merge(model);
        const want = batch.predict(data.x, r * d).mean;
        // Early on (N < 100 here) one record moves an ARD precision noticeably: up to 4% measured.
        expect(Math.abs(mean - want)).toBeLessThan((r < 100 ? 5e-2 : 1e-2) * Math.max(1, Math.abs(want)));
        model.update(rows(data, r, r + 1));
        const now = Array.from(model.posterior().alpha);
        if (now.join() !== alpha.join()) refits++;
        alpha = now;
      }
      // A refit each time N grows by 10%: 12 → 600 records is ln(50)/ln(1.1) ≈ 41 refits, not 588.
      expect(refits).toBeGreaterThan(20);
      expect(refits).toBeLessThan(45);
    });
  }

  it('refitFraction 0 refits on every update; a negative value is refused', () => {
    const data = linearData(40, 3, 5);
    const model = vbLinearFamily.create(3, { refitFraction: 0 });
    model.update(rows(data, 0, 20));
    for (let r = 20; r < 40; r++) {
      const alpha = model.posterior().alpha[0];
      model.update(rows(data, r, r + 1));
      expect(model.posterior().alpha[0]).not.toBe(alpha);
    }
    expect(() => vbLinearFamily.create(3, { refitFraction: -0.1 })).toThrow(ConfigError);
  });

  it('restores a layout-1 snapshot (statistics only) as the batch fit of its statistics', () => {
    for (const family of [vbLinearFamily, vbLinearArdFamily]) {
      const data = linearData(60, 4, 5);
      const model = family.create(4);
      model.update(data);
      const current = model.snapshot();
      const { xtx, xty, scalars } = current.arrays;
      const { refitFraction: _r, iterations: _i, stopReason: _s, warm: _w, ...header } = current.header;
      const layout1 = { family: family.id, version: 1, dim: 4, header, arrays: { xtx, xty, scalars: scalars.slice(0, 3) } };
      const restored = family.restore(decodeSnapshot(encodeSnapshot(layout1)).snapshot);
      expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(current));
      expect(restored.posterior().L).toBe(model.posterior().L);
    }
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

  it('by default (1e4, at the marginal-likelihood-optimal precision) prunes all 20 irrelevant weights of 25 at N = 20,000 and keeps the 5 relevant ones', () => {
    const big = sparseData(20_000, 1);
    const model = vbLinearArdFamily.create(25);
    model.update(big);
    const p = model.posterior();
    expect(p.stopReason).toBe('converged');
    for (let j = 5; j < 25; j++) expect(p.w[j]).toBe(0);
    for (let j = 0; j < 5; j++) expect(Math.abs(p.w[j] - big.truth[j])).toBeLessThan(0.02);
  });

  it('by default prunes at N = 2,000 at least the 15 of 20 irrelevant weights scikit-learn ARDRegression prunes on these data, and keeps the 5 relevant ones; Infinity prunes none (the reference)', () => {
    const model = vbLinearArdFamily.create(25);
    model.update(data);
    const p = model.posterior();
    expect(Array.from(p.w.slice(5)).filter((v) => v === 0).length).toBeGreaterThanOrEqual(15);
    for (let j = 0; j < 5; j++) expect(p.pruned[j]).toBe(0);
    const off = vbLinearArdFamily.create(25, { pruneThreshold: Infinity });
    off.update(data);
    expect(Array.from(off.posterior().w).filter((v) => v === 0)).toHaveLength(0);
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
