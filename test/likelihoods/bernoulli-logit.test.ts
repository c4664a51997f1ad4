import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BernoulliLogitGaussHermite } from '../../src/likelihoods/bernoulli-logit-gauss-hermite.js';
import { BernoulliLogitJaakkolaJordan } from '../../src/likelihoods/bernoulli-logit-jaakkola-jordan.js';
import { BernoulliLogitMonteCarlo } from '../../src/likelihoods/bernoulli-logit-monte-carlo.js';
import { BernoulliLogitViper } from '../../src/likelihoods/bernoulli-logit-viper.js';
import { bernoulliLogit } from '../../src/likelihoods/bernoulli-logit.js';
import type { GaussianExpectationLikelihood } from '../../src/likelihoods/likelihood.js';
import { Rng } from '../../src/rng/rng.js';
import { readReferenceJson } from '../helpers/reference.js';

interface GridRecord { v: number; t: number; l: number; eta: number; deta_dv: number; deta_dt: number; exact: number; exact_dv: number; exact_dt: number }
const grid = readReferenceJson<{ records: GridRecord[] }>('viper', 'bound_grid.json');
const gh = new BernoulliLogitGaussHermite();
const jj = new BernoulliLogitJaakkolaJordan();
const viper = new BernoulliLogitViper(12);
const mc = new BernoulliLogitMonteCarlo(200, Rng.fromSeed(3));
const labels = [0, 1] as const;
const mean = fc.double({ min: -8, max: 8, noNaN: true });
const variance = fc.double({ min: 1e-3, max: 9, noNaN: true });

function finiteDifference(fn: (m: number, v: number) => number, m: number, v: number): { dm: number; dv: number } {
  const hm = 1e-5 * Math.max(1, Math.abs(m));
  const hv = 1e-5 * v;
  return { dm: (fn(m + hm, v) - fn(m - hm, v)) / (2 * hm), dv: (fn(m, v + hv) - fn(m, v - hv)) / (2 * hv) };
}

describe('Gauss–Hermite Bernoulli-logit against the exact E[softplus] of bound_grid.json', () => {
  it('E[log σ(−f)] = −E softplus(f) to 1e-9 relative with ∂m, ∂v from E σ and t·E σ′ (τ ≤ 2)', () => {
    const g = { dm: 0, dv: 0 };
    for (const r of grid.records.filter((q) => q.l === 12 && q.t <= 2)) {
      const value = gh.expectedLogProb(0, r.v, r.t * r.t, g);
      expect(Math.abs(-value - r.exact), `v=${r.v} t=${r.t}`).toBeLessThanOrEqual(1e-9 * r.exact);
      expect(Math.abs(-g.dm - r.exact_dv)).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(-g.dv * 2 * r.t - r.exact_dt)).toBeLessThanOrEqual(1e-9);
    }
  });

  it('the VI-PER evaluator is −η_l at the grid (label 0: ϑ = m)', () => {
    const g = { dm: 0, dv: 0 };
    for (const r of grid.records.filter((q) => q.l === 12)) {
      expect(Math.abs(-viper.expectedLogProb(0, r.v, r.t * r.t, g) - r.eta)).toBeLessThanOrEqual(1e-12 * r.eta);
      expect(Math.abs(-g.dm - r.deta_dv)).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(-g.dv * 2 * r.t - r.deta_dt)).toBeLessThanOrEqual(1e-10);
    }
  });
});

describe('Bernoulli-logit evaluators: bounds, labels, gradients', () => {
  it('JJ and VI-PER lie below Gauss–Hermite for E log p (neither dominates the other near v = 0), and E log p ≤ log E p (Jensen)', () => {
    fc.assert(fc.property(fc.constantFrom(...labels), mean, variance, (y, m, v) => {
      const exact = gh.expectedLogProb(y, m, v);
      const tol = 1e-10 * Math.max(1, Math.abs(exact));
      expect(viper.expectedLogProb(y, m, v)).toBeLessThanOrEqual(exact + tol);
      expect(jj.expectedLogProb(y, m, v)).toBeLessThanOrEqual(exact + tol);
      expect(jj.logMarginal(y, m, v)).toBeLessThanOrEqual(gh.logMarginal(y, m, v) + tol);
      expect(exact).toBeLessThanOrEqual(gh.logMarginal(y, m, v) + tol);
    }), { numRuns: 300 });
  });

  it('labels −1 and 0 give the same values; y = 1 mirrors m', () => {
    for (const model of [gh, jj, viper, mc] as GaussianExpectationLikelihood[]) {
      expect(model.expectedLogProb(-1, 0.7, 0.4)).toBe(model.expectedLogProb(0, 0.7, 0.4));
      expect(model.logMarginal(-1, 0.7, 0.4)).toBe(model.logMarginal(0, 0.7, 0.4));
      if (model !== mc) expect(model.expectedLogProb(1, 0.7, 0.4)).toBeCloseTo(model.expectedLogProb(0, -0.7, 0.4), 12);
    }
    expect(gh.expectedLogProb(2, 0, 1)).toBeNaN();
  });

  it('each method’s gradients match central differences of its own value', () => {
    const methods: GaussianExpectationLikelihood[] = [gh, jj, viper, mc];
    fc.assert(fc.property(fc.constantFrom(...labels), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: 0.01, max: 6, noNaN: true }), (y, m, v) => {
      for (const model of methods) {
        for (const which of ['expectedLogProb', 'logMarginal'] as const) {
          const g = { dm: 0, dv: 0 };
          model[which](y, m, v, g);
          const fd = finiteDifference((a, b) => model[which](y, a, b), m, v);
          expect(Math.abs(g.dm - fd.dm), `${model.name}.${which} dm`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(fd.dm)));
          expect(Math.abs(g.dv - fd.dv), `${model.name}.${which} dv`).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(fd.dv)));
        }
      }
    }), { numRuns: 60 });
  });

  it('Monte Carlo with many draws agrees with Gauss–Hermite within its standard error', () => {
    const big = new BernoulliLogitMonteCarlo(20000, Rng.fromSeed(11));
    for (const [m, v] of [[0.3, 1], [-2, 4], [3, 0.25]]) {
      expect(Math.abs(big.expectedLogProb(1, m, v) - gh.expectedLogProb(1, m, v))).toBeLessThan(0.02 * Math.sqrt(v));
      expect(Math.abs(big.logMarginal(0, m, v) - gh.logMarginal(0, m, v))).toBeLessThan(0.03 * Math.sqrt(v));
    }
  });

  it('the factory builds each method with the paper’s defaults', () => {
    expect(bernoulliLogit('viper').name).toBe('bernoulli-logit-viper');
    expect((bernoulliLogit('viper') as BernoulliLogitViper).l).toBe(12);
    expect((bernoulliLogit('monte-carlo') as BernoulliLogitMonteCarlo).samples).toBe(1000);
    expect(bernoulliLogit('monte-carlo', { seed: 5 }).expectedLogProb(1, 0.2, 1)).toBe(bernoulliLogit('monte-carlo', { seed: 5 }).expectedLogProb(1, 0.2, 1));
    expect(bernoulliLogit('jj').name).toBe('bernoulli-logit-jj');
    expect((bernoulliLogit('gauss-hermite', { points: 40 }) as BernoulliLogitGaussHermite).points).toBe(40);
  });
});
