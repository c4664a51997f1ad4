import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { ModelSnapshot } from '../../src/core/model-snapshot.js';
import { NumericalError } from '../../src/core/numerical-error.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { directFamily, DirectModel, QuantizedWeights } from '../../src/models/direct/index.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { expectSameState } from '../helpers/same-state.js';

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
      const batch = directFamily.create(d, small);
      batch.update(all);
      const stream = directFamily.create(d, small);
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

  it('merge refuses another grid and leaves the model untouched; a model made on the same grid and feature map merges', () => {
    const a = directFamily.create(2, small);
    a.update(data(10, 2, 1));
    const before = encodeSnapshot(a.snapshot());
    expect(() => a.merge(directFamily.create(2, { ...small, sigmaW: 2 }))).toThrow(ConfigError);
    expect(encodeSnapshot(a.snapshot())).toEqual(before);
    const rff = directFamily.create(2, { ...small, features: { type: 'rff', count: 3, lengthscale: 1, seed: 4 } });
    const all = data(20, 2, 5);
    rff.update(slice(all, 0, 12));
    const other = directFamily.create(2, { grid: rff.grid, features: rff.featureMap! });
    other.update(slice(all, 12, 20));
    rff.merge(other);
    const both = directFamily.create(2, { ...small, features: { type: 'rff', count: 3, lengthscale: 1, seed: 4 } });
    both.update(all);
    expectClose(arrays(rff).gram, arrays(both).gram, { rel: 1e-12, absOfMax: 1e-14 }, 'gram');
    expect(() => directFamily.create(2, { grid: rff.grid, supportSize: 5 })).toThrow(/either grid/);
    expect(() => directFamily.create(3, { grid: rff.grid })).toThrow(/grid\.b/);
  });

  it('snapshot → bytes → restore with a feature map and a committed fit is exact and keeps learning identically; a wrong array is refused', () => {
    const all = data(50, 2, 3);
    const model = directFamily.create(2, { ...small, features: { type: 'rff', count: 3, lengthscale: [0.5, 2], seed: 4 }, restarts: 2, refitEvery: 25 });
    model.update(slice(all, 0, 30));
    const bytes = encodeSnapshot(model.snapshot());
    const restored = directFamily.restore(decodeSnapshot(bytes).snapshot);
    expect(encodeSnapshot(restored.snapshot())).toEqual(bytes);
    expect(Array.from(restored.posterior().logits)).toEqual(Array.from(model.posterior().logits));
    model.update(slice(all, 30, 50));
    restored.update(slice(all, 30, 50));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    expect(restored.predict(Float64Array.of(0.3, -1)).mean).toBe(model.predict(Float64Array.of(0.3, -1)).mean);
    const wrong = { ...model.snapshot(), arrays: { ...model.snapshot().arrays, phiTy: new Float64Array(1) } };
    expect(() => directFamily.restore(wrong)).toThrow(SnapshotError);
  });

  it('refuses bad options with a ConfigError naming the field', () => {
    expect(() => directFamily.create(2, { support: [[0, 1], [1, 0]] })).toThrow(/support\[1\]\[1\]/);
    expect(() => directFamily.create(2, { support: [[0, 1]] })).toThrow(/field support/);
    expect(() => directFamily.create(2, { priorProbs: [[1, 2], [1, 2]] })).toThrow(/priorProbs\[0\]/);
    expect(() => directFamily.create(2, { noiseSupport: [1, -1] })).toThrow(/noiseSupport\[1\]/);
    expect(() => directFamily.create(2, { noiseSupport: [1, 2], noisePriorProbs: [1] })).toThrow(ConfigError);
    expect(() => directFamily.create(2, { restarts: 0 })).toThrow(/restarts/);
    expect(() => directFamily.create(2, { features: { type: 'rff', count: 2, lengthscale: [1, 2, 3] } })).toThrow(/lengthscale/);
  });

  it('forget(γ) equals records weighted γ', () => {
    const all = data(40, 3, 9);
    const model = directFamily.create(3, small);
    model.update(all);
    model.forget(0.5);
    const half = directFamily.create(3, small);
    half.update({ ...all, weights: new Float64Array(40).fill(0.5) });
    expectClose(arrays(model).gram, arrays(half).gram, { rel: 1e-15 }, 'gram');
    expect(model.posterior().elbo).toBeCloseTo(half.posterior().elbo, 10);
  });

  it('refitEvery fits inside update; otherwise the fit waits until the posterior is read, and reading leaves the state as it was', () => {
    const all = data(40, 2, 2);
    const periodic = directFamily.create(2, { ...small, refitEvery: 20 });
    expect(periodic.update(slice(all, 0, 10)).objective).toBeUndefined();
    const stats = periodic.update(slice(all, 10, 25));
    expect(stats.objective).toBeTypeOf('number');
    expect(periodic.snapshot().header.stale).toBe(false);
    expect(stats.objective).toBe(periodic.posterior().elbo);
    const lazy = directFamily.create(2, small);
    lazy.update(all);
    expect(lazy.snapshot().header.stale).toBe(true);
    const before = lazy.snapshot();
    lazy.posteriorMean();
    lazy.sampleCodes(Rng.fromSeed(1));
    lazy.moments(Float64Array.of(0.5, 1));
    expectSameState(lazy.snapshot(), before);
    expect(lazy.snapshot().header.stale).toBe(true);
  });

  it('refit() commits the fit: the logits become the warm start and the posterior until the statistics change', () => {
    const all = data(40, 2, 7);
    const model = directFamily.create(2, small);
    model.update(all);
    const lazy = model.posterior();
    const fitted = model.refit();
    expect(Array.from(fitted.logits)).toEqual(Array.from(lazy.logits));
    expect(fitted.elbo).toBe(lazy.elbo);
    expect(model.snapshot().header.stale).toBe(false);
    expect(Array.from(model.snapshot().arrays.logits)).toEqual(Array.from(fitted.logits));
    expect(model.posterior().elbo).toBe(fitted.elbo);
    expect(model.posterior().iterations).toBe(fitted.iterations);
  });

  it('a label whose statistics stay finite but overflow the ELBO (|y| ≈ 1e153) is refused, the model unchanged', () => {
    const model = directFamily.create(2, small, { maxAbsInput: Number.MAX_VALUE }); // the label reaches the fit (not refused as input)
    model.update(data(10, 2, 4));
    const before = model.snapshot();
    const huge = { x: Float64Array.of(0.1, 0.2), y: Float64Array.of(3e153), n: 1, d: 2 };
    expect(Number.isFinite(3e153 * 3e153)).toBe(true);
    expect(() => model.update(huge)).toThrow(NumericalError);
    expectSameState(model.snapshot(), before);
    expect(model.posteriorMean().every(Number.isFinite)).toBe(true);
  });

  it('a model with an RFF map equals a model fed the mapped features', () => {
    const all = data(30, 2, 6);
    const rff = directFamily.create(2, { ...small, features: { type: 'rff', count: 4, lengthscale: 1.5, seed: 2 } });
    rff.update(all);
    const map = rff.featureMap!;
    const phi = new Float64Array(30 * 8);
    for (let r = 0; r < 30; r++) map.map(all.x, 2 * r, phi, 8 * r);
    const plain = directFamily.create(8, small);
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
    const model = directFamily.create(3, { supportSize: 15, sigmaW: 1, noiseSupport: [0.05, 0.1, 0.5] });
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
});

describe('direct snapshot layouts', () => {
  const MIXTURE_SETTINGS = ['components', 'mixtureSteps', 'mixtureLearningRate', 'mixtureEntropy', 'entropySamples'];

  /** A layout-1 snapshot (before mixtures: no mixture settings, no `mixture` array) of the same model, keeping `keep` of the layout-2 settings. */
  function layout1(snapshot: ModelSnapshot, keep: (key: string) => boolean): ModelSnapshot {
    const settings = Object.fromEntries(Object.entries(snapshot.header.settings as object).filter(([key]) => keep(key)));
    const { mixture: _, ...arrays } = snapshot.arrays;
    return { ...snapshot, version: 1, header: { ...snapshot.header, settings }, arrays };
  }

  it('a layout-1 snapshot restores to the same model (same predictions, same state) and keeps learning identically', () => {
    const all = data(40, 2, 11);
    for (const options of [{ ...small, refitEvery: 15 }, { ...small, features: { type: 'rff', count: 3, lengthscale: 1, seed: 2 } } as const]) {
      const model = directFamily.create(2, options);
      model.update(slice(all, 0, 30));
      const old = layout1(model.snapshot(), (key) => !MIXTURE_SETTINGS.includes(key));
      expect(old.arrays.mixture).toBeUndefined();
      const restored = directFamily.restore(decodeSnapshot(encodeSnapshot(old)).snapshot);
      expectSameState(restored.snapshot(), model.snapshot());
      const x = Float64Array.of(0.4, -0.3);
      expect(restored.predict(x).mean).toBe(model.predict(x).mean);
      expect(restored.predict(x).variance).toBe(model.predict(x).variance);
      model.update(slice(all, 30, 40));
      restored.update(slice(all, 30, 40));
      expectSameState(restored.snapshot(), model.snapshot());
    }
  });

  it('a layout-1 snapshot from before CAVI (settings without caviSweeps) restores as the L-BFGS-only fit it was', () => {
    const all = data(30, 3, 12);
    const model = directFamily.create(3, { ...small, caviSweeps: 0 });
    model.update(all);
    const old = layout1(model.snapshot(), (key) => ['restarts', 'seed', 'maxIter', 'refitEvery'].includes(key));
    expect(Object.keys(old.header.settings as object)).toEqual(['restarts', 'seed', 'maxIter', 'refitEvery']);
    const restored = directFamily.restore(old);
    expectSameState(restored.snapshot(), model.snapshot());
    expect(Array.from(restored.posteriorMean())).toEqual(Array.from(model.posteriorMean()));
    expect(() => directFamily.restore({ ...old, header: { ...old.header, settings: { ...(old.header.settings as object), components: 2 } } })).toThrow(SnapshotError);
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
