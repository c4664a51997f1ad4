import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { InputError } from '../../src/core/input-error.js';
import { ShapeError } from '../../src/core/shape-error.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { DirectElbo, directFamily, DirectModel, QuantizedWeights } from '../../src/models/direct/index.js';
import { vbLinearFamily } from '../../src/models/vb-linear/index.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';

function data(n: number, d: number, seed: number) {
  const rng = Rng.fromSeed(seed);
  const w = Float64Array.from({ length: d }, () => Math.round(rng.normal()));
  const x = new Float64Array(n * d);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) { x[r * d + j] = rng.normal(); s += w[j] * x[r * d + j]; }
    y[r] = s + 0.3 * rng.normal();
  }
  return { x, y, n, d };
}

const slice = (all: ReturnType<typeof data>, from: number, to: number) => ({ x: all.x.subarray(from * all.d, to * all.d), y: all.y.subarray(from, to), n: to - from, d: all.d, firstRow: from + 1 });
const small = { supportSize: 7, sigmaW: 1, noiseSupport: [0.01, 0.05, 0.1, 0.5, 1, 5] };
const arrays = (model: DirectModel) => model.snapshot().arrays;

describe('direct streaming properties', () => {
  it('accumulate-then-fit equals the fit on the concatenated batch (statistics bit-identical)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1e6 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }), (d, seed, cuts) => {
      const all = data(60, d, seed);
      const batch = DirectModel.create(d, small);
      batch.update(all);
      const stream = DirectModel.create(d, small);
      let at = 0;
      for (const c of cuts) { const to = Math.min(60, at + c); stream.update(slice(all, at, to)); at = to; }
      stream.update(slice(all, at, 60));
      expect(arrays(stream).gram).toEqual(arrays(batch).gram);
      expect(arrays(stream).phiTy).toEqual(arrays(batch).phiTy);
      expect(arrays(stream).scalars).toEqual(arrays(batch).scalars);
      expect(Array.from(stream.posterior().logits)).toEqual(Array.from(batch.posterior().logits));
      expect(stream.posterior().elbo).toBe(batch.posterior().elbo);
    }), { numRuns: 25 });
  });

  it('merge(A, B) equals one accumulator fed both (1e-12 relative)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 59 }), (d, seed, cut) => {
      const all = data(60, d, seed);
      const a = DirectModel.create(d, small);
      const b = DirectModel.create(d, small);
      a.update(slice(all, 0, cut));
      b.update(slice(all, cut, 60));
      a.merge(b);
      const both = DirectModel.create(d, small);
      both.update(all);
      for (const name of ['gram', 'phiTy', 'scalars']) expectClose(arrays(a)[name], arrays(both)[name], { rel: 1e-12, absOfMax: 1e-14 }, name);
      expect(a.recordsSeen).toBe(60);
      const sa = arrays(a);
      const atBoth = new DirectElbo(a.grid, { b: d, gram: sa.gram, phiTy: sa.phiTy, yty: sa.scalars[0], n: sa.scalars[1], records: sa.scalars[2], complete: true }).evaluate(both.posterior().logits);
      expectClose(atBoth, both.posterior().elbo, { rel: 1e-10 }, 'ELBO of the merged statistics at the joint fit');
    }), { numRuns: 25 });
  });

  it('merge refuses another family, dimension or grid and leaves the model untouched', () => {
    const a = DirectModel.create(2, small);
    a.update(data(10, 2, 1));
    const before = encodeSnapshot(a.snapshot());
    expect(() => a.merge(DirectModel.create(3, small))).toThrow(ShapeError);
    expect(() => a.merge(DirectModel.create(2, { ...small, sigmaW: 2 }))).toThrow(ConfigError);
    expect(() => a.merge(vbLinearFamily.create(2))).toThrow(ShapeError);
    expect(encodeSnapshot(a.snapshot())).toEqual(before);
  });

  it.each([['Φ records', {}], ['RFF inputs', { features: { type: 'rff', count: 3, lengthscale: [0.5, 2], seed: 4 } }]] as const)('snapshot → bytes → restore is exact and keeps learning identically (%s)', (_, extra) => {
    const all = data(50, 2, 3);
    const model = DirectModel.create(2, { ...small, ...extra, restarts: 2, refitEvery: 25 });
    model.update(slice(all, 0, 30));
    const bytes = encodeSnapshot(model.snapshot());
    const restored = directFamily.restore(decodeSnapshot(bytes).snapshot) as DirectModel;
    expect(encodeSnapshot(restored.snapshot())).toEqual(bytes);
    expect(Array.from(restored.posterior().logits)).toEqual(Array.from(model.posterior().logits));
    model.update(slice(all, 30, 50));
    restored.update(slice(all, 30, 50));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    expect(restored.predict(Float64Array.of(0.3, -1)).mean).toBe(model.predict(Float64Array.of(0.3, -1)).mean);
    expect(() => vbLinearFamily.restore(model.snapshot())).toThrow(SnapshotError);
    const wrong = { ...model.snapshot(), arrays: { ...model.snapshot().arrays, phiTy: new Float64Array(1) } };
    expect(() => directFamily.restore(wrong)).toThrow(SnapshotError);
  });

  it('bad input throws a typed error naming row and column and leaves the model untouched', () => {
    const model = DirectModel.create(2, small);
    model.update({ x: Float64Array.of(1, 2, 3, 4), y: Float64Array.of(1, 2), n: 2, d: 2 });
    const before = encodeSnapshot(model.snapshot());
    const bad = { x: Float64Array.of(1, 2, 3, Number.NaN), y: Float64Array.of(1, 2), n: 2, d: 2, firstRow: 11 };
    expect(() => model.update(bad)).toThrow('feature is not finite (row 12, column 2, value NaN)');
    expect(() => model.update({ x: Float64Array.of(1, 2, 3), y: Float64Array.of(1), n: 1, d: 3 })).toThrow(ShapeError);
    expect(() => model.forget(1.5)).toThrow(InputError);
    expect(encodeSnapshot(model.snapshot())).toEqual(before);
  });

  it('refuses bad options with a ConfigError naming the field', () => {
    expect(() => DirectModel.create(2, { support: [[0, 1], [1, 0]] })).toThrow(/support\[1\]\[1\]/);
    expect(() => DirectModel.create(2, { support: [[0, 1]] })).toThrow(/field support/);
    expect(() => DirectModel.create(2, { priorProbs: [[1, 2], [1, 2]] })).toThrow(/priorProbs\[0\]/);
    expect(() => DirectModel.create(2, { noiseSupport: [1, -1] })).toThrow(/noiseSupport\[1\]/);
    expect(() => DirectModel.create(2, { noiseSupport: [1, 2], noisePriorProbs: [1] })).toThrow(ConfigError);
    expect(() => DirectModel.create(2, { restarts: 0 })).toThrow(/restarts/);
    expect(() => DirectModel.create(2, { features: { type: 'rff', count: 2, lengthscale: [1, 2, 3] } })).toThrow(/lengthscale/);
  });

  it('forget(1) is the identity and forget(γ) equals records weighted γ', () => {
    const all = data(40, 3, 9);
    const model = DirectModel.create(3, small);
    model.update(all);
    const before = encodeSnapshot(model.snapshot());
    model.forget(1);
    expect(encodeSnapshot(model.snapshot())).toEqual(before);
    model.forget(0.5);
    const half = DirectModel.create(3, small);
    half.update({ ...all, weights: new Float64Array(40).fill(0.5) });
    expectClose(arrays(model).gram, arrays(half).gram, { rel: 1e-15 }, 'gram');
    expect(model.posterior().elbo).toBeCloseTo(half.posterior().elbo, 10);
  });

  it('refitEvery fits inside update; otherwise the fit waits until the posterior is read', () => {
    const all = data(40, 2, 2);
    const periodic = DirectModel.create(2, { ...small, refitEvery: 20 });
    expect(periodic.update(slice(all, 0, 10)).objective).toBeUndefined();
    const stats = periodic.update(slice(all, 10, 25));
    expect(stats.objective).toBeTypeOf('number');
    expect(periodic.snapshot().header.stale).toBe(false);
    expect(stats.objective).toBe(periodic.posterior().elbo);
    const lazy = DirectModel.create(2, small);
    lazy.update(all);
    expect(lazy.snapshot().header.stale).toBe(true);
    lazy.posteriorMean();
    expect(lazy.snapshot().header.stale).toBe(false);
  });

  it('a model with an RFF map equals a model fed the mapped features', () => {
    const all = data(30, 2, 6);
    const rff = DirectModel.create(2, { ...small, features: { type: 'rff', count: 4, lengthscale: 1.5, seed: 2 } });
    rff.update(all);
    const map = rff.featureMap!;
    const phi = new Float64Array(30 * 8);
    for (let r = 0; r < 30; r++) map.map(all.x, 2 * r, phi, 8 * r);
    const plain = DirectModel.create(8, small);
    plain.update({ x: phi, y: all.y, n: 30, d: 8 });
    expect(arrays(rff).gram).toEqual(arrays(plain).gram);
    expect(rff.weightCount).toBe(8);
    const x = Float64Array.of(0.2, -0.4);
    const f = new Float64Array(8);
    map.map(x, 0, f);
    expect(rff.predict(x).mean).toBe(plain.predict(f).mean);
    expect(rff.predict(x).variance).toBe(plain.predict(f).variance);
  });

  it('samples are 4-bit codes whose frequencies match q; sparsity is the mass on the zero atom', () => {
    const all = data(25, 3, 8);
    const model = DirectModel.create(3, { supportSize: 15, sigmaW: 1, noiseSupport: [0.05, 0.1, 0.5] });
    model.update(all);
    const p = model.posterior();
    const rng = Rng.fromSeed(5);
    const counts = new Float64Array(3 * 15);
    const draws = 20_000;
    let zeros = 0;
    let mismatches = 0;
    const w = new Float64Array(3);
    for (let t = 0; t < draws; t++) {
      const s = model.sampleCodes(rng);
      if (t === 0) expect([s.bits, s.codes.length]).toEqual([4, 2]);
      s.decode(w);
      for (let j = 0; j < 3; j++) {
        counts[j * 15 + s.code(j)] += 1 / draws;
        if (w[j] !== model.grid.support[j * 15 + s.code(j)]) mismatches++;
        if (w[j] === 0) zeros += 1 / (3 * draws);
      }
    }
    expect(mismatches).toBe(0);
    expectClose(counts, p.probs, { abs: 0.015 }, 'code frequencies');
    expect(Math.abs(zeros - p.sparsity)).toBeLessThan(0.015);
    let expectedZero = 0;
    for (let j = 0; j < 3; j++) expectedZero += p.probs[j * 15 + 7] / 3;
    expect(model.grid.support[7]).toBe(0);
    expect(p.sparsity).toBeCloseTo(expectedZero, 14);
  });

  it('is reachable from the registry as a regression family', () => {
    expect(getFamily('direct').task).toBe('regression');
    expect(getFamily('direct').create(3)).toBeInstanceOf(DirectModel);
  });

  it('never produces NaN on finite input, including extreme scales', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: -1e4, max: 1e4, noNaN: true })), { minLength: 1, maxLength: 10 }), (rows) => {
      const model = DirectModel.create(2, { ...small, maxIter: 50 });
      model.update({ x: Float64Array.from(rows.flatMap(([a, b]) => [a, b])), y: Float64Array.from(rows.map((r) => r[2])), n: rows.length, d: 2 });
      const p = model.posterior();
      for (const v of [...p.probs, ...p.noiseProbs, ...p.mean, p.elbo]) expect(Number.isNaN(v)).toBe(false);
    }), { numRuns: 100 });
  });
});

describe('QuantizedWeights', () => {
  it('packs 4-bit codes two per byte (odd counts too) and falls back to bytes above 16 atoms', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 40 }), fc.array(fc.nat(), { minLength: 1, maxLength: 9 }), (mbar, raw) => {
      const b = raw.length;
      const support = Float64Array.from({ length: b * mbar }, (_, k) => k);
      const codes = raw.map((v) => v % mbar);
      const packed = new QuantizedWeights(b, support, mbar);
      codes.forEach((c, j) => packed.setCode(j, c));
      codes.forEach((c, j) => packed.setCode(j, c));
      expect(packed.bits).toBe(mbar <= 16 ? 4 : 8);
      expect(packed.codes.length).toBe(mbar <= 16 ? Math.ceil(b / 2) : b);
      expect(codes.map((_, j) => packed.code(j))).toEqual(codes);
      expect(Array.from(packed.decode())).toEqual(codes.map((c, j) => j * mbar + c));
    }), { numRuns: 200 });
  });
});
