import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.js';
import { directBnnFamily, type DirectBnnModel } from '../../src/models/direct/bnn-family.js';
import { DirectBnnElbo } from '../../src/models/direct/bnn-objective.js';
import { TemperedDirectBnnElbo } from '../../src/models/direct/bnn-tempered-objective.js';
import { Rng } from '../../src/rng/rng.js';
import { expectSameState } from '../helpers/same-state.js';

const D_IN = 2;

/** y = 0.8·(x₁ − 0.5x₂)² − 0.6·(0.7x₂ + 0.3)² + 0.2 + N(0, 0.1²): a quadratic network of two units. */
function quadraticData(n: number, seed: number): { x: Float64Array; y: Float64Array; n: number; d: number } {
  const rng = Rng.fromSeed(seed);
  const x = new Float64Array(n * D_IN);
  const y = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const x1 = rng.normal();
    const x2 = rng.normal();
    x[r * D_IN] = x1;
    x[r * D_IN + 1] = x2;
    y[r] = 0.8 * (x1 - 0.5 * x2) ** 2 - 0.6 * (0.7 * x2 + 0.3) ** 2 + 0.2 + 0.1 * rng.normal();
  }
  return { x, y, n, d: D_IN };
}

function rmse(model: DirectBnnModel, data: ReturnType<typeof quadraticData>): number {
  let total = 0;
  for (let r = 0; r < data.n; r++) total += (model.predict(data.x, r * D_IN).mean - data.y[r]) ** 2;
  return Math.sqrt(total / data.n);
}

describe('direct-bnn', () => {
  it('refuses more than 16 inputs, a bad hidden width, a negative initScale and a temperature ≤ 1', () => {
    expect(() => directBnnFamily.create(17)).toThrow(ConfigError);
    expect(() => directBnnFamily.create(16, { hidden: 1, maxIter: 1 })).not.toThrow();
    expect(() => directBnnFamily.create(2, { hidden: 0 })).toThrow(ConfigError);
    expect(() => directBnnFamily.create(2, { initScale: -1 })).toThrow(ConfigError);
    expect(() => directBnnFamily.create(2, { temperatures: [4, 1] })).toThrow(ConfigError);
  });

  it('learns a quadratic network: the best of its starts, test RMSE a quarter of the labels\' spread (1.40)', () => {
    const model = directBnnFamily.create(D_IN, { hidden: 4, restarts: 10 });
    model.update(quadraticData(400, 1));
    const posterior = model.refit();
    expect(posterior.startElbos.length).toBe(10);
    expect(posterior.elbo).toBeCloseTo(Math.max(...posterior.startElbos), 9);
    expect(rmse(model, quadraticData(200, 2))).toBeLessThan(0.4);
    expect(posterior.expectedNoise).toBeLessThan(1);
  });

  it('the tempered objective is the ELBO plus (τ − 1)·Σ_j H(q_j), with the gradient of its finite differences', () => {
    const model = directBnnFamily.create(D_IN, { hidden: 2, supportSize: 5 });
    model.update(quadraticData(30, 9));
    const { grid, shape } = model;
    const arrays = model.snapshot().arrays;
    const stats = { fourth: arrays.fourth, crossY: arrays.crossY, yty: arrays.scalars[0], records: arrays.scalars[1] };
    const elbo = new DirectBnnElbo(shape, grid, stats);
    const tempered = new TemperedDirectBnnElbo(new DirectBnnElbo(shape, grid, stats));
    tempered.temperature = 3;
    const rng = Rng.fromSeed(2);
    const logits = Float64Array.from({ length: elbo.size }, () => rng.normal());
    const value = elbo.evaluate(logits);
    let entropy = 0;
    for (let i = 0; i < grid.b * grid.mbar; i++) entropy -= elbo.q[i] * elbo.logQ[i];
    expect(Math.abs(tempered.evaluate(logits) - (value + 2 * entropy))).toBeLessThanOrEqual(1e-9 * Math.abs(value));
    const gradient = new Float64Array(elbo.size);
    tempered.evaluate(logits, gradient);
    const largest = Math.max(...Array.from(gradient, Math.abs));
    for (let i = 0; i < gradient.length; i++) {
      const plus = logits.slice();
      const minus = logits.slice();
      plus[i] += 1e-6;
      minus[i] -= 1e-6;
      const fd = (tempered.evaluate(plus) - tempered.evaluate(minus)) / 2e-6;
      expect(Math.abs(gradient[i] - fd)).toBeLessThanOrEqual(1e-6 * Math.max(1, largest));
    }
  });

  it('a stream cut anywhere gives the same statistics bit for bit (refitEvery 0)', () => {
    const data = quadraticData(37, 3);
    const one = directBnnFamily.create(D_IN, { hidden: 2 });
    one.update(data);
    const cut = directBnnFamily.create(D_IN, { hidden: 2 });
    for (const [start, end] of [[0, 5], [5, 6], [6, 30], [30, 37]]) {
      cut.update({ x: data.x.subarray(start * D_IN, end * D_IN), y: data.y.subarray(start, end), n: end - start, d: D_IN });
    }
    expectSameState(cut.snapshot(), one.snapshot());
  });

  it('merge adds the statistics (equal to rounding to one model fed both); merged into an empty model, it fits bit-identically', () => {
    const left = quadraticData(30, 4);
    const right = quadraticData(25, 5);
    const a = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 100 });
    const b = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 100 });
    const both = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 100 });
    a.update(left);
    b.update(right);
    both.update(left);
    both.update(right);
    a.merge(b);
    const got = a.snapshot().arrays;
    const want = both.snapshot().arrays;
    for (const name of ['fourth', 'crossY', 'scalars'] as const) {
      for (let i = 0; i < want[name].length; i++) expect(Math.abs(got[name][i] - want[name][i])).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want[name][i])));
    }
    const empty = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 100 });
    empty.merge(both);
    expectSameState(empty.snapshot(), both.snapshot());
    const x = Float64Array.of(0.3, -0.8);
    expect(empty.predict(x).mean).toBe(both.predict(x).mean);
  });

  it('forget scales the statistics and the count', () => {
    const model = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 50 });
    model.update(quadraticData(20, 6));
    const before = model.snapshot().arrays.fourth.slice();
    model.forget(0.5);
    const after = model.snapshot().arrays.fourth;
    for (let i = 0; i < before.length; i++) expect(after[i]).toBe(before[i] * 0.5);
    expect(model.summary().effectiveDataSize).toBe(10);
  });

  it('draws 4-bit codes of every weight on the grid, with the frequencies of q', () => {
    const model = directBnnFamily.create(D_IN, { hidden: 2, maxIter: 100 });
    model.update(quadraticData(50, 7));
    const { b, mbar, support } = model.grid;
    const rng = Rng.fromSeed(5);
    const draws = 2000;
    const counts = new Float64Array(b * mbar);
    for (let t = 0; t < draws; t++) {
      const codes = model.sampleCodes(rng);
      expect(codes.bits).toBe(4);
      expect(codes.codes.length).toBe(Math.ceil(b / 2));
      const w = codes.decode();
      for (let j = 0; j < b; j++) {
        expect(w[j]).toBe(support[j * mbar + codes.code(j)]);
        counts[j * mbar + codes.code(j)] += 1;
      }
    }
    const probs = model.posterior().probs;
    for (let i = 0; i < probs.length; i++) expect(Math.abs(counts[i] / draws - probs[i])).toBeLessThan(5 * Math.sqrt(0.25 / draws));
  });

  it('refitEvery commits the fit inside update, and the next fit starts from it', () => {
    const model = directBnnFamily.create(D_IN, { hidden: 2, refitEvery: 20, maxIter: 100 });
    const stats = model.update(quadraticData(25, 8));
    expect(stats.iterations).toBeGreaterThan(0);
    const restored = directBnnFamily.restore(model.snapshot());
    expect(restored.posterior().logits).toEqual(model.posterior().logits);
    expect(restored.posterior().elbo).toBe(stats.objective);
  });
});
