import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/rng/index.js';
import { normalCdf } from '../../src/special/normal-cdf.js';
import { studentTCdf } from '../../src/special/student-t-cdf.js';

function uint32s(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, () => rng.nextUint32());
}

/** Sample mean and (unbiased) variance. */
function moments(xs: Float64Array): { mean: number; variance: number } {
  let mean = 0;
  for (const x of xs) mean += x;
  mean /= xs.length;
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  return { mean, variance: ss / (xs.length - 1) };
}

/** One of four kinds of draw, so spare normals are cached at arbitrary points. */
function draw(rng: Rng, kind: number): number {
  switch (kind) {
    case 0:
      return rng.nextUint32();
    case 1:
      return rng.nextDouble();
    case 2:
      return rng.normal();
    default:
      return rng.gamma(0.7, 2);
  }
}

describe('Rng: xoshiro128**', () => {
  it('reproduces the reference output of xoshiro128starstar.c from state {1, 2, 3, 4}', () => {
    const rng = Rng.fromState(new Uint32Array([1, 2, 3, 4]));
    expect(uint32s(rng, 10)).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804,
    ]);
  });

  it('is deterministic per seed and different across seeds, including folded high bits', () => {
    expect(uint32s(Rng.fromSeed(42), 20)).toEqual(uint32s(Rng.fromSeed(42), 20));
    const seeds = [
      0, 1, 2, -1, 42, 2 ** 32, 2 ** 32 + 42, -(2 ** 32), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER,
    ];
    const firsts = seeds.map((seed) => uint32s(Rng.fromSeed(seed), 4).join(','));
    expect(new Set(firsts).size).toBe(seeds.length);
    expect(uint32s(Rng.fromSeed(-0), 4)).toEqual(uint32s(Rng.fromSeed(0), 4));
  });

  it('draws uint32 integers and doubles in [0, 1) with 53 random bits', () => {
    const rng = Rng.fromSeed(7);
    let odd = 0;
    let sum = 0;
    let invalid = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const u = rng.nextUint32();
      if (!(Number.isInteger(u) && u >= 0 && u < 2 ** 32)) invalid++;
      const d = rng.nextDouble();
      const scaled = d * 2 ** 53;
      if (!(d >= 0 && d < 1 && Number.isInteger(scaled))) invalid++;
      odd += scaled % 2;
      sum += d;
    }
    expect(invalid).toBe(0);
    expect(Math.abs(odd / n - 0.5)).toBeLessThan(5 * Math.sqrt(0.25 / n));
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / n));
  });

  it('resumes the exact sequence from getState (property over seeds and draw mixes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 }),
        (seed, before, after) => {
          const rng = Rng.fromSeed(seed);
          for (const kind of before) draw(rng, kind);
          const state = rng.getState();
          const resumed = Rng.fromState(state);
          expect(Array.from(resumed.getState())).toEqual(Array.from(state));
          for (const kind of after) expect(Object.is(draw(resumed, kind), draw(rng, kind))).toBe(true);
        },
      ),
      { numRuns: 300, seed: 12345 },
    );
  });

  it('stores a cached spare normal bit-exactly in the state', () => {
    const rng = Rng.fromSeed(3);
    rng.normal();
    const state = rng.getState();
    expect(state.length).toBe(7);
    expect(state[4]).toBe(1);
    const expected = rng.normal();
    expect(Object.is(Rng.fromState(state).normal(), expected)).toBe(true);
    expect(rng.getState()[4]).toBe(0);
    expect(rng.getState()).not.toBe(rng.getState());
  });

  it('fill gives the same normals as repeated normal() calls', () => {
    const a = Rng.fromSeed(99);
    const b = Rng.fromSeed(99);
    const out = a.fill(new Float64Array(101));
    for (let i = 0; i < out.length; i++) expect(out[i]).toBe(b.normal());
    expect(Array.from(a.getState())).toEqual(Array.from(b.getState()));
  });
});

describe('Rng.split', () => {
  it('gives children that differ from the parent and from each other, deterministically', () => {
    const parent = Rng.fromSeed(2024);
    const c1 = parent.split();
    const c2 = parent.split();
    const grandchild = c1.split();
    const streams = [parent, c1, c2, grandchild].map((r) => uint32s(r, 64).join(','));
    expect(new Set(streams).size).toBe(4);
    const first = uint32s(Rng.fromSeed(2024).split(), 64);
    expect(uint32s(Rng.fromSeed(2024).split(), 64)).toEqual(first);
  });

  it('gives children uncorrelated with the parent', () => {
    const parent = Rng.fromSeed(5);
    const child = parent.split();
    const n = 50_000;
    let sxy = 0;
    for (let i = 0; i < n; i++) sxy += parent.normal() * child.normal();
    // Under independence the mean product has standard error 1/√n.
    expect(Math.abs(sxy / n)).toBeLessThan(5 / Math.sqrt(n));
  });
});

describe('Rng sampling distributions (seeded, deterministic)', () => {
  const n = 200_000;

  it('normal(): mean 0 and variance 1 within 5 standard errors', () => {
    const xs = Rng.fromSeed(11).fill(new Float64Array(n));
    const { mean, variance } = moments(xs);
    expect(Math.abs(mean)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / (n - 1)));
    let below = 0;
    for (const x of xs) if (x < -1.959963984540054) below++;
    expect(Math.abs(below / n - 0.025)).toBeLessThan(5 * Math.sqrt((0.025 * 0.975) / n));
  });

  it.each([
    [2.5, 3],
    [0.3, 1],
    [1, 0.5],
    [40, 2],
  ])('gamma(%d, %d): mean shape/rate and variance shape/rate² within 5 standard errors', (shape, rate) => {
    const rng = Rng.fromSeed(Math.round(shape * 1000 + rate));
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = rng.gamma(shape, rate);
    const { mean, variance } = moments(xs);
    const trueMean = shape / rate;
    const trueVariance = shape / (rate * rate);
    // Var(sample variance) ≈ σ⁴(2 + excess kurtosis)/n, excess kurtosis of a gamma = 6/shape.
    expect(Math.abs(mean - trueMean)).toBeLessThan(5 * Math.sqrt(trueVariance / n));
    expect(Math.abs(variance - trueVariance)).toBeLessThan(5 * trueVariance * Math.sqrt((2 + 6 / shape) / n));
    expect(xs.every((x) => x >= 0 && x < Infinity)).toBe(true);
  });
});

describe('Rng.studentT (Bailey\'s polar method)', () => {
  it.each([1.5, 3, 12, 400])('studentT(%d): the empirical cdf within a Kolmogorov–Smirnov band (200k draws, p = 0.001) of studentTCdf', (df) => {
    const n = 200_000;
    const rng = Rng.fromSeed(Math.round(df * 10));
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = rng.studentT(df);
    xs.sort();
    let distance = 0;
    for (let i = 0; i < n; i += 7) {
      const f = studentTCdf(xs[i], df);
      distance = Math.max(distance, Math.abs(f - i / n), Math.abs(f - (i + 1) / n));
    }
    expect(distance).toBeLessThan(1.95 / Math.sqrt(n));
  });

  it('studentT(1e15) is a standard normal to double precision: w^(−2/df) − 1 keeps its digits (KS band of normalCdf, 200k draws, p = 0.001)', () => {
    const n = 200_000;
    const rng = Rng.fromSeed(14);
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = rng.studentT(1e15);
    xs.sort();
    let distance = 0;
    for (let i = 0; i < n; i += 7) {
      const f = normalCdf(xs[i]);
      distance = Math.max(distance, Math.abs(f - i / n), Math.abs(f - (i + 1) / n));
    }
    expect(distance).toBeLessThan(1.95 / Math.sqrt(n));
  });

  it('rejects a non-positive or non-finite df', () => {
    for (const df of [0, -1, NaN, Infinity]) expect(() => Rng.fromSeed(1).studentT(df)).toThrow(`df must be finite and > 0, got ${df}`);
  });
});

describe('Rng argument validation', () => {
  it('rejects seeds that are not safe integers, naming the value', () => {
    for (const seed of [NaN, Infinity, -Infinity, 1.5, 2 ** 53]) {
      expect(() => Rng.fromSeed(seed)).toThrow(RangeError);
      expect(() => Rng.fromSeed(seed)).toThrow(`seed must be a safe integer, got ${seed}`);
    }
  });

  it('rejects non-positive or non-finite shape and rate', () => {
    const rng = Rng.fromSeed(1);
    for (const shape of [0, -1, NaN, Infinity]) {
      expect(() => rng.gamma(shape)).toThrow(`shape must be finite and > 0, got ${shape}`);
    }
    for (const rate of [0, -2, NaN, Infinity]) {
      expect(() => rng.gamma(1, rate)).toThrow(`rate must be finite and > 0, got ${rate}`);
    }
  });

  it('rejects malformed states', () => {
    expect(() => Rng.fromState(new Uint32Array(5))).toThrow(RangeError);
    expect(() => Rng.fromState(new Uint32Array(4))).toThrow(/all be zero/);
    expect(() => Rng.fromState(new Uint32Array([1, 0, 0, 0, 2, 0, 0]))).toThrow(/spare flag/);
  });
});
