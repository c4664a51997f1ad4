import { describe, expect, it } from 'vitest';
import { syntheticLogistic } from '../../bench/synthetic-logistic.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';
import { PgLogitModel } from '../../src/models/pg-logit/family.js';
import { VbLogitModel } from '../../src/models/vb-logit/family.js';
import { ViPerModel } from '../../src/models/vi-per/family.js';
import { getFamily } from '../../src/registry.js';

/**
 * The bounded replay of local ξ of the Jaakkola–Jordan / Pólya-gamma families (issue 16): the last
 * `replay` records keep their ξ and are re-optimised by every update, older records frozen as the
 * second-order expansion of their re-optimised sites.
 */
const FAMILIES = ['pg-logit', 'vb-logit', 'vb-logit-ard'] as const;
type Data = { x: Float64Array; y: Float64Array; n: number; d: number };

function seeded(n: number, d: number, seed: number): Data {
  const { x, y } = syntheticLogistic(n, d, seed);
  return { x, y, n, d };
}

const rows = (data: Data, from: number, to: number, weights?: Float64Array) => ({
  x: data.x.subarray(from * data.d, to * data.d), y: data.y.subarray(from, to), n: to - from, d: data.d, ...(weights === undefined ? {} : { weights: weights.subarray(from, to) }),
});

function fed(id: string, options: object, data: Data, size: number, weights?: Float64Array): OnlineModel {
  const model = getFamily(id as 'pg-logit').create(data.d, options);
  for (let b = 0; b < data.n; b += size) model.update(rows(data, b, Math.min(data.n, b + size), weights));
  return model;
}

function gaussianOf(model: OnlineModel): { mean: Float64Array; covariance: Float64Array } {
  if (model instanceof PgLogitModel || model instanceof ViPerModel) return { mean: model.posteriorMean(), covariance: model.covariance() };
  if (model instanceof VbLogitModel) return { mean: model.posteriorMean(), covariance: model.posterior.V.slice() };
  throw new Error(`no Gaussian for ${model.family}`);
}

function kl(p: OnlineModel, q: OnlineModel): number {
  const a = gaussianOf(p);
  const b = gaussianOf(q);
  return gaussianKl(a.mean, a.covariance, b.mean, b.covariance, a.mean.length);
}

const bytes = (model: OnlineModel) => encodeSnapshot(model.snapshot());

describe('Jaakkola–Jordan replay (pg-logit sda, vb-logit, vb-logit-ard)', () => {
  const small = seeded(1_000, 5, 12);

  it.each(FAMILIES)('%s: 10 minibatches with the default replay (2,000 ≥ n) end at the one-batch fixed point, weighted or not; replay 0 does not', (id) => {
    const tight = id === 'pg-logit' ? {} : { tol: 1e-12 };
    const one = fed(id, tight, small, small.n);
    // Measured KL(one-batch ‖ streamed) below 1e-11 (vb-logit's passes at tol 1e-12: its default 1e-5 leaves 2e-6 to 4e-5); replay 0: above 1e-2.
    expect(kl(one, fed(id, tight, small, 100))).toBeLessThan(1e-9);
    expect(kl(one, fed(id, { ...tight, replay: 0 }, small, 100))).toBeGreaterThan(1e-2);
    const weights = Float64Array.from({ length: small.n }, (_, r) => 0.5 + (r % 3));
    expect(kl(fed(id, tight, small, small.n, weights), fed(id, tight, small, 100, weights))).toBeLessThan(1e-9);
  });

  it.each(['pg-logit', 'vb-logit'])('%s: n = 3,000 > replay 2,000, p = 10, 10 minibatches: KL(one-batch vi-gh ‖ streamed) within 2× of the one-batch fit\'s (replay 0: beyond)', (id) => {
    const data = seeded(3_000, 10, 12);
    const yardstick = fed('vi-gh', {}, data, data.n);
    const one = kl(yardstick, fed(id, {}, data, data.n));
    // Measured ratios, pg-logit / vb-logit: default 0.53 / 0.55, replay 0 (the behaviour before the replay) 11.2 / 2.35.
    expect(kl(yardstick, fed(id, {}, data, 300)) / one).toBeLessThan(2);
    expect(kl(yardstick, fed(id, { replay: 0 }, data, 300)) / one).toBeGreaterThan(2);
  });

  it.each(FAMILIES)('%s: one batch is the same fit whatever the replay, iterations included; a batch larger than the window is fitted whole', (id) => {
    const fit = (model: OnlineModel) => [Array.from(gaussianOf(model).mean), Array.from(gaussianOf(model).covariance), (model as PgLogitModel).diagnostics.iterations];
    expect(fit(fed(id, {}, small, small.n))).toEqual(fit(fed(id, { replay: 0 }, small, small.n)));
    expect(fit(fed(id, { replay: 300 }, small, small.n))).toEqual(fit(fed(id, { replay: 0 }, small, small.n)));
  });

  it.each(FAMILIES)('%s: snapshot → bytes → restore mid-stream (window full, records frozen), then continuing, equals the uninterrupted run bit for bit', (id) => {
    const family = getFamily(id as 'pg-logit');
    const model = family.create(small.d, { replay: 300 });
    for (let b = 0; b < 500; b += 100) model.update(rows(small, b, b + 100));
    const restored = family.restore(decodeSnapshot(bytes(model)).snapshot);
    expect(bytes(restored)).toEqual(bytes(model));
    for (let b = 500; b < small.n; b += 100) {
      model.update(rows(small, b, b + 100));
      restored.update(rows(small, b, b + 100));
    }
    expect(bytes(restored)).toEqual(bytes(model));
  });

  it('a pg-logit layout-2 snapshot (before the replay) restores with replay 0, the base = its q and no replayed records, and goes on as before', () => {
    const family = getFamily('pg-logit');
    const model = family.create(small.d, { replay: 0 });
    model.update(rows(small, 0, 100));
    const current = model.snapshot();
    const { replay: _r, ...header } = current.header as { [key: string]: ModelSnapshot['header'][string] };
    const { baseShift: _s, basePrecision: _p, siteX: _x, siteY: _y, siteWeights: _w, siteXi: _xi, ...arrays } = current.arrays;
    const restored = family.restore(decodeSnapshot(encodeSnapshot({ ...current, version: 2, header, arrays })).snapshot);
    expect(restored.snapshot().header.replay).toBe(0);
    expect(bytes(restored)).toEqual(bytes(model));
    model.update(rows(small, 100, 200));
    restored.update(rows(small, 100, 200));
    expect(bytes(restored)).toEqual(bytes(model));
  });

  it.each(['vb-logit', 'vb-logit-ard'])('a %s layout-1 snapshot (before the replay) restores with replay 0 and no replayed records, and goes on as before', (id) => {
    const family = getFamily(id as 'vb-logit');
    const model = family.create(small.d, { replay: 0 });
    model.update(rows(small, 0, 100));
    const current = model.snapshot();
    const { replay: _r, ...header } = current.header as { [key: string]: ModelSnapshot['header'][string] };
    const { siteX: _x, siteY: _y, siteWeights: _w, siteXi: _xi, ...arrays } = current.arrays;
    const restored = family.restore(decodeSnapshot(encodeSnapshot({ ...current, version: 1, header, arrays })).snapshot);
    expect(restored.snapshot().header.replay).toBe(0);
    expect(bytes(restored)).toEqual(bytes(model));
    model.update(rows(small, 100, 200));
    restored.update(rows(small, 100, 200));
    expect(bytes(restored)).toEqual(bytes(model));
  });

  it('replay is validated: a non-negative integer; pg-logit refuses it in svi mode; the default is 2,000', () => {
    for (const id of FAMILIES) {
      expect(() => getFamily(id as 'pg-logit').create(3, { replay: -1 })).toThrow(/replay/);
      expect(() => getFamily(id as 'pg-logit').create(3, { replay: 1.5 })).toThrow(/replay/);
      expect(getFamily(id as 'pg-logit').create(3).snapshot().header.replay).toBe(2000);
    }
    expect(() => getFamily('pg-logit').create(3, { mode: 'svi', effectiveSize: 100, replay: 10 })).toThrow(/replay/);
    expect(getFamily('pg-logit').create(3, { mode: 'svi', effectiveSize: 100, replay: 0 }).snapshot().header.replay).toBe(0);
  });
});
