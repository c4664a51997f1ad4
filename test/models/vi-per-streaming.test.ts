import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syntheticLogistic } from '../../bench/synthetic-logistic.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';
import type { ViPerModel, ViPerOptions } from '../../src/models/vi-per/index.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';

/**
 * Issue 28, item 5: the streaming default of `vi-gh` and `vi-per` (`sda`, replay 2,000, `refit`
 * `natural`) at p = 10 in minibatches of 256. KL as in bench/streaming-quality.bench.ts: KL(Y ‖ q) with
 * Y the one-batch `vi-gh` fit of all records seen. `vi-per`: streamed within 2× of its own one-batch
 * fit. `vi-gh`'s own one-batch fit is Y (KL 0), so its bound is the same allowance, 2× the one-batch
 * `vi-per` KL.
 */
const d = 10;
const size = 256;
const sets = new Map([17, 3].map((seed) => [seed, syntheticLogistic(50 * size, d, seed)]));
const rows = (from: number, to: number, seed = 17) => {
  const data = sets.get(seed) as { x: Float64Array; y: Float64Array };
  return { x: data.x.subarray(from * d, to * d), y: data.y.subarray(from, to), n: to - from, d };
};

function fed(id: string, options: ViPerOptions, n: number, batch: number, seed = 17): ViPerModel {
  const model = getFamily(id as 'vi-per').create(d, options);
  for (let b = 0; b < n; b += batch) model.update(rows(b, Math.min(n, b + batch), seed));
  return model;
}

const kl = (p: ViPerModel, q: ViPerModel): number => gaussianKl(p.posteriorMean(), p.covariance(), q.posteriorMean(), q.covariance(), d);

describe('vi-gh and vi-per streaming default (natural refits, sites folded, amortised cadence)', () => {
  it.each([[10, 17], [50, 17], [10, 3]])('%i minibatches of 256 (seed %i): streamed within 2× of the one-batch KL to Y', (batches, seed) => {
    const n = batches * size;
    const yardstick = fed('vi-gh', {}, n, n, seed);
    const allowance = 2 * kl(yardstick, fed('vi-per', {}, n, n, seed));
    // Measured KL(Y ‖ q), seed 17 at 10 / 50 batches, seed 3 at 10: vi-gh 1.8e-4 / 1.7e-3 / 5.2e-4 against allowances
    // 3.5e-3 / 1.6e-2 / 3.0e-3; vi-per ratios 1.22 / 0.84 / 1.04. The L-BFGS refits of before: vi-gh 1.0e-3 / 3.9e-3 / 3.1e-3,
    // vi-per ratios 1.99 / 1.21 / 2.54.
    expect(kl(yardstick, fed('vi-gh', {}, n, size, seed))).toBeLessThan(allowance);
    expect(kl(yardstick, fed('vi-per', {}, n, size, seed))).toBeLessThan(allowance);
  });

  it('records leaving the replay are folded as sites frozen at the current q: at 24 minibatches vi-gh is closer to Y than with L-BFGS folds', () => {
    const n = 24 * size;
    const yardstick = fed('vi-gh', {}, n, n);
    // Measured 1.8e-3 (sites) against 5.7e-3 (a streaming fit of each chunk of R/2 records, `refit` `lbfgs`).
    expect(kl(yardstick, fed('vi-gh', {}, n, size))).toBeLessThan(0.6 * kl(yardstick, fed('vi-gh', { refit: 'lbfgs' }, n, size)));
  });

  it('refitFraction 0 refits the window on every update: beyond the replay it lands no further from Y than the default', () => {
    const n = 12 * size;
    const yardstick = fed('vi-gh', {}, n, n);
    expect(kl(yardstick, fed('vi-gh', { refitFraction: 0 }, n, size))).toBeLessThanOrEqual(kl(yardstick, fed('vi-gh', {}, n, size)) * 1.001);
  });

  it('snapshot → bytes → restore between cheap steps and refits, then continuing, equals the uninterrupted run bit for bit', () => {
    const family = getFamily('vi-gh');
    const model = family.create(d);
    for (let b = 0; b < 11; b++) model.update(rows(b * size, (b + 1) * size));
    const restored = family.restore(decodeSnapshot(encodeSnapshot(model.snapshot())).snapshot);
    for (let b = 11; b < 16; b++) {
      model.update(rows(b * size, (b + 1) * size));
      restored.update(rows(b * size, (b + 1) * size));
    }
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
  });

  it('a snapshot of before `refit` (no such setting) restores as `lbfgs` and goes on as before; `natural` is refused with a diagonal q', () => {
    const family = getFamily('vi-gh');
    const model = family.create(d, { refit: 'lbfgs' });
    model.update(rows(0, size));
    const current = model.snapshot();
    const { refit: _r, refitFraction: _f, ...settings } = (current.header as { settings: { [key: string]: unknown } }).settings;
    const old = { ...current, header: { ...current.header, settings } } as typeof current;
    const restored = family.restore(decodeSnapshot(encodeSnapshot(old)).snapshot) as ViPerModel;
    expect(restored.diagnostics.settings.refit).toBe('lbfgs');
    model.update(rows(size, 2 * size));
    restored.update(rows(size, 2 * size));
    expect(encodeSnapshot(restored.snapshot())).toEqual(encodeSnapshot(model.snapshot()));
    expect(() => getFamily('vi-per-mf').create(d, { refit: 'natural' })).toThrow(/refit/);
    expect((getFamily('vi-per-mf').create(d) as ViPerModel).diagnostics.settings.refit).toBe('lbfgs');
    expect(() => getFamily('vi-per').create(d, { refitFraction: -1 })).toThrow(/refitFraction/);
  });
});

describe('vi-gh / vi-per natural refits never leave a non-finite q', () => {
  it('random streams (separable or not, features up to 100, replay 20–60 so records fold): every update leaves μ and Σ finite', () => {
    fc.assert(fc.property(
      fc.constantFrom('vi-gh', 'vi-per'), fc.integer({ min: 2, max: 4 }), fc.integer({ min: 20, max: 60 }), fc.double({ min: 0, max: 1, noNaN: true }),
      fc.boolean(), fc.double({ min: 0.1, max: 100, noNaN: true }), fc.integer({ min: 1, max: 1_000_000 }),
      (id, dim, replay, refitFraction, separable, scale, seed) => {
        const rng = Rng.fromSeed(seed);
        const model = getFamily(id as 'vi-per').create(dim, { replay, refitFraction }) as ViPerModel;
        for (let b = 0; b < 8; b++) {
          const n = 1 + Math.floor(rng.nextDouble() * 25);
          const x = Float64Array.from({ length: n * dim }, () => scale * rng.normal());
          const y = Float64Array.from({ length: n }, (_, r) => (separable ? (x[r * dim] > 0 ? 1 : 0) : rng.nextDouble() < 0.5 ? 1 : 0));
          model.update({ x, y, n, d: dim });
          expect(model.posteriorMean().every(Number.isFinite)).toBe(true);
          expect(model.covariance().every(Number.isFinite)).toBe(true);
        }
      }), { numRuns: 40 });
  });
});
