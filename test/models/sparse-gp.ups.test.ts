import { describe, expect, it } from 'vitest';
import { BernoulliProbitLikelihood } from '../../src/likelihoods/bernoulli-probit-likelihood.js';
import { PoissonLikelihood } from '../../src/likelihoods/poisson-likelihood.js';
import { SparseGpEvaluator } from '../../src/models/sparse-gp/sparse-gp-evaluator.js';
import { UpsDlmObjective } from '../../src/models/sparse-gp/ups-dlm-objective.js';
import { UpsSampler } from '../../src/models/sparse-gp/ups-sampler.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';
import { objectiveCases } from './sparse-gp-fixture.js';

const reference = readReferenceJson('sgp', 'ups_sampler_cases.json');
const S = 8000;

describe('uPS rejection sampler reproduces ups_sampler_cases.json (README §4: 4-sigma tests)', () => {
  it.each<[number, string, number, number, number, any]>(reference.rows.map((row: any, k: number): [number, string, number, number, number, any] => [k, row.likelihood, row.y, row.mu, row.v, row]))('row %i: %s y=%s μ=%s v=%s', (k, _l, _y, _m, _v, row: any) => {
    const likelihood = row.likelihood === 'probit' ? new BernoulliProbitLikelihood() : new PoissonLikelihood();
    const sampler = new UpsSampler(likelihood, reference.maxn);
    expectClose(likelihood.logMaxDensity(row.y), row.log_ell_max, { rel: 1e-12, abs: 1e-12 }, 'log ℓ_max');
    // log C: closed form for probit; Gauss–Hermite(100) for poisson, whose quadrature error the README puts at ≈ 2e-9.
    const tolerance = row.likelihood === 'probit' ? 1e-12 : 1e-8;
    expectClose(likelihood.logMarginal(row.y, row.mu, row.v), row.log_C, { rel: tolerance, abs: tolerance }, 'log C');
    expect(sampler.width(row.y, row.mu, row.v)).toEqual({ aligned: row.aligned, n: row.n });
    const rng = Rng.fromSeed(1000 + (k as number));
    let dm = 0;
    let dv = 0;
    for (let s = 0; s < S; s++) {
      const f = sampler.draw(row.y, row.mu, row.v, row.n, rng);
      dm += (f - row.mu) / row.v;
      dv += 0.5 * ((f - row.mu) ** 2 / row.v ** 2 - 1 / row.v);
    }
    const rate = S / sampler.proposals;
    expect(Math.abs(rate - row.accept_prob)).toBeLessThanOrEqual(4 * Math.sqrt((row.accept_prob * (1 - row.accept_prob)) / sampler.proposals));
    expect(Math.abs(dm / S - row.grad_logC_mu)).toBeLessThanOrEqual((4 * row.sd_mu_estimate) / Math.sqrt(S));
    expect(Math.abs(dv / S - row.grad_logC_v)).toBeLessThanOrEqual((4 * row.sd_v_estimate) / Math.sqrt(S));
  });
});

describe('the uPS gradient is unbiased for the whole-case DLM gradient (objective_cases.json grads.dlm)', () => {
  for (const c of objectiveCases().filter((k) => k.name === 'probit_1d_iso' || k.name === 'poisson_1d_iso')) {
    it(c.name, () => {
      const objective = new UpsDlmObjective(c.likelihood as BernoulliProbitLikelihood, 4000);
      objective.prepare(c.n, Rng.fromSeed(77));
      const g = { m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(c.params.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 };
      const value = new SparseGpEvaluator(c.M, c.d).evaluate(c.params, c.x, c.y, c.n, objective, 1, g, true);
      expectClose(value, c.raw.expected.dlm_objective, { rel: 1e-9, abs: 1e-9 }, 'value (exact forward pass)');
      expect(objective.fallbacks).toBe(0);
      // 4000 draws per point: the Monte Carlo error of each summed gradient is a few percent of its scale.
      expectClose(g.m, c.raw.expected.grads.dlm.m, { absOfMax: 0.05 }, 'm');
      expectClose(g.kernel.map((v) => 2 * v)[0], c.raw.expected.grads.dlm.log_s, { abs: 0.05 * Math.max(1, Math.abs(c.raw.expected.grads.dlm.log_s)) }, 'log_s');
    });
  }
});
