import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logitMomentsFor } from '../../src/models/adf/logit-moments-for.js';
import { logitProbability } from '../../src/models/adf/logit-probability.js';
import { logitRuleFor, logitRules } from '../../src/models/adf/logit-rules.js';
import { emptyLogitTilt, logitTilt } from '../../src/models/adf/logit-tilt.js';
import { logitTiltFor } from '../../src/models/adf/logit-tilt-for.js';
import { logitTiltSeries } from '../../src/models/adf/logit-tilt-series.js';
import { quadratureScratch } from '../../src/models/adf/quadrature-scratch.js';
import { quadratureTiltedMoments } from '../../src/models/adf/quadrature-tilted-moments.js';
import type { TiltedMoments } from '../../src/models/adf/tilted-moments.js';
import { createModel } from '../../src/registry.js';
import { logSigmoid } from '../../src/special/log-sigmoid.js';
import { bruteForceLogZ, bruteForceTilted } from '../helpers/brute-force-tilted.js';
import { logisticData } from '../helpers/synthetic-data.js';

function moments(): TiltedMoments {
  return { logZ: 0, alpha: 0, nu: 0 };
}

/** The largest relative difference of α, ν and log Z (relative to max(1, |log Z|)). */
function gap(got: TiltedMoments, want: TiltedMoments): number {
  return Math.max(Math.abs(got.alpha - want.alpha) / Math.abs(want.alpha), Math.abs(got.nu - want.nu) / Math.abs(want.nu), Math.abs(got.logZ - want.logZ) / Math.max(1, Math.abs(want.logZ)));
}

describe('adf-logit: the logistic tilt with adaptive nodes (issue 28, item 6)', () => {
  const reference = quadratureScratch(160);
  const rules = logitRules(32);
  const tilt = emptyLogitTilt();

  // The ladder's bounds were chosen at 1e-10 against a 160-node rule (logit-rules.ts); 1e-9 leaves room.
  it('property: with the series or the rule the ladder picks, α, ν and log Z of both labels agree with a 160-node rule to 1e-9 wherever s² ≤ 0.75', () => {
    fc.assert(fc.property(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -6, max: Math.log10(0.75), noNaN: true }), fc.constantFrom(1, -1), (mu, logVariance, y) => {
      const s2 = 10 ** logVariance;
      const want = logitMomentsFor(moments(), logitTilt(emptyLogitTilt(), mu, s2, reference), y);
      const got = logitMomentsFor(moments(), logitTiltFor(tilt, mu, s2, rules), y);
      expect(gap(got, want)).toBeLessThan(1e-9);
    }), { numRuns: 3000, seed: 6 });
  });

  // Measured worst over μ in [−40, 40] (steps of 0.0137), both labels: 4.6e-14 at s² = 5e-4, 1.9e-13 at 0.003, 2.4e-12 at 0.005.
  it('property: for a narrow projection (s² ≤ 0.005) the closed-form series agrees with a 160-node rule to 1e-11 (both labels, and the curvature against |curvature| + ν)', () => {
    fc.assert(fc.property(fc.double({ min: -40, max: 40, noNaN: true }), fc.double({ min: -5, max: Math.log10(0.005), noNaN: true }), fc.constantFrom(1, -1), (mu, logVariance, y) => {
      const s2 = 10 ** logVariance;
      const exact = logitTilt(emptyLogitTilt(), mu, s2, reference);
      const series = logitTiltSeries(tilt, mu, s2);
      expect(gap(logitMomentsFor(moments(), series, y), logitMomentsFor(moments(), exact, y))).toBeLessThan(1e-11);
      expect(Math.abs(series.curvature - exact.curvature)).toBeLessThan(1e-11 * (Math.abs(exact.curvature) + exact.nu));
    }), { numRuns: 2000, seed: 7 });
  });

  // Measured worst error of the tilted mean and variance, in tilted sds, over μ in [−20, 20]: equal
  // up to s² = 8 (7.2e-4), then 2.5e-2 vs 4.4e-2 at s² = 16 and 7.2e-3 vs 0.31 at s² = 25.
  it('a wider projection uses the model\'s own rule, and the tilted mean and variance are no further from brute-force integration than the general mode-centred quadrature with that rule', () => {
    const own = quadratureScratch(32);
    for (const s2 of [0.8, 2, 8, 16, 25]) {
      expect(logitRuleFor(rules, s2).nodes.length).toBe(32);
      let general = 0;
      let adaptive = 0;
      for (let mu = -20; mu <= 20; mu += 2) {
        for (const y of [1, -1]) {
          const want = bruteForceTilted((f) => logSigmoid(y * f), mu, s2, 40_000);
          const error = (m: TiltedMoments) => Math.max(Math.abs(mu + m.alpha * s2 - want.mean), Math.abs(s2 - m.nu * s2 * s2 - want.variance)) / Math.sqrt(want.variance);
          general = Math.max(general, error(quadratureTiltedMoments(moments(), 'logit', mu, s2, y, 1, own)));
          adaptive = Math.max(adaptive, error(logitMomentsFor(moments(), logitTilt(tilt, mu, s2, own), y)));
        }
      }
      expect(adaptive).toBeLessThanOrEqual(general * (1 + 1e-6) + 1e-12);
    }
  });

  it('log Z of both labels and p(y = 1) equal brute-force integration (1e-9), far tails included', () => {
    for (const [mu, s2] of [[0.3, 0.01], [-2, 0.2], [4, 0.5], [-15, 0.05], [25, 0.7], [0, 0.75], [1.5, 0.004], [-30, 1e-4]]) {
      const t = logitTiltFor(tilt, mu, s2, rules);
      for (const y of [1, -1]) {
        const want = bruteForceLogZ((f) => logSigmoid(y * f), mu, s2);
        expect(Math.abs(logitMomentsFor(moments(), t, y).logZ - want)).toBeLessThan(1e-9 * Math.max(1, Math.abs(want)));
      }
      expect(Math.abs(logitProbability(t) - Math.exp(bruteForceLogZ(logSigmoid, mu, s2)))).toBeLessThan(1e-9);
    }
  });

  it('a model rule smaller than a rung is used for every projection', () => {
    const small = logitRules(8);
    expect(logitRuleFor(small, 1e-4).nodes.length).toBe(5);
    expect(logitRuleFor(small, 0.03).nodes.length).toBe(8);
    expect(logitRuleFor(small, 5).nodes.length).toBe(8);
  });
});

describe('adf-logit test-then-train shares the prediction\'s work with the update (issue 28, item 6)', () => {
  // The update takes V·x, μ, s² and the tilt from the prediction only when they are its own numbers:
  // a model that predicts before every update must end bit for bit where one that never predicts does.
  it('predicting each record first leaves the posterior bit for bit as without predictions, with forget, in-place edits of the row and predictions of other rows in between', () => {
    const d = 4;
    const data = logisticData(600, d, 28);
    const plain = createModel('adf-logit', d, { window: 50 });
    const predicting = createModel('adf-logit', d, { window: 50 });
    const row = new Float64Array(d);
    for (let r = 0; r < data.n; r++) {
      row.set(data.x.subarray(r * d, (r + 1) * d));
      predicting.predict(row, 0);
      if (r % 7 === 0) predicting.predict(data.x, ((r + 3) % data.n) * d);
      if (r % 11 === 0) {
        row[1] += 0.5;
        predicting.predict(row, 0);
        row[1] -= 0.5;
      }
      if (r % 13 === 0) {
        row[2] += 1;
        predicting.predict(row, 0);
        row[2] -= 1;
      }
      if (r % 97 === 0) {
        predicting.predict(row, 0);
        predicting.forget(0.9);
        plain.forget(0.9);
      }
      const batch = { x: row, y: data.y.subarray(r, r + 1), n: 1, d };
      plain.update(batch);
      predicting.update(batch);
    }
    expect(Array.from(predicting.posterior.w)).toEqual(Array.from(plain.posterior.w));
    expect(Array.from(predicting.posterior.V)).toEqual(Array.from(plain.posterior.V));
    expect(predicting.posterior.logDetV).toBe(plain.posterior.logDetV);
  });
});
