import { describe, expect, it } from 'vitest';
import { directFamily } from '../../src/models/direct/family.js';
import { buildDirectGrid } from '../../src/models/direct/grid.js';
import { DirectCavi } from '../../src/models/direct/cavi.js';
import { completeGram } from '../../src/models/direct/complete-gram.js';
import { DirectElbo } from '../../src/models/direct/objective.js';
import { directPredictiveMoments } from '../../src/models/direct/predict.js';
import type { DirectStatistics } from '../../src/models/direct/state.js';
import { accumulateDirect } from '../../src/models/direct/accumulate.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';

const enumeration = readReferenceJson('direct', 'enumeration_cases.json');
const cases: any[] = enumeration.cases;

/** The fixture's grid, statistics and logits as the model's arrays. */
function setUp(c: any) {
  const grid = buildDirectGrid(c.b, { support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig }, true);
  const stats: DirectStatistics = { b: c.b, gram: new Float64Array(c.b * c.b), phiTy: new Float64Array(c.b), yty: 0, n: 0, records: 0, complete: true };
  accumulateDirect(stats, Float64Array.from(c.Phi.flat()), c.n, Float64Array.from(c.y));
  completeGram(stats);
  const logits = Float64Array.from([...c.logits.flat(), ...c.logits_sig]);
  return { grid, stats, logits };
}

describe.each(cases.map((c) => [c.name, c]))('DIRECT Theorem 1 on enumeration case %s', (_, c) => {
  it('the statistics equal the fixture sufficient statistics', () => {
    const { stats } = setUp(c);
    const ref = c.sufficient_statistics;
    expectClose(stats.yty, ref.yTy, { rel: 1e-13 }, 'yTy');
    expectClose(stats.phiTy, ref.PhiTy, { rel: 1e-13, absOfMax: 1e-14 }, 'PhiTy');
    expectClose(stats.gram, ref.PhiTPhi.flat(), { rel: 1e-13, absOfMax: 1e-14 }, 'PhiTPhi');
    expect(stats.n).toBe(c.n);
  });

  it('the ELBO equals brute-force enumeration to 1e-9 and its terms match', () => {
    const { grid, stats, logits } = setUp(c);
    const elbo = new DirectElbo(grid, stats);
    const value = elbo.evaluate(logits);
    expect(Math.abs(value - c.elbo_bruteforce)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(value - c.elbo_theorem1)).toBeLessThanOrEqual(1e-9);
    expect(Math.abs(value + (c.n / 2) * Math.log(2 * Math.PI) - c.elbo_theorem1_without_2pi)).toBeLessThanOrEqual(1e-9);
    expectClose(elbo.expectedLogLikelihood, c.terms.expected_loglik_bruteforce, { abs: 1e-9 }, 'E log lik');
    expectClose(elbo.expectedSquaredResidual, c.terms.expected_sq_residual, { rel: 1e-12 }, 'R');
    expectClose(elbo.expectedInverseNoise, c.terms.E_inv_sig2, { rel: 1e-13 }, 'E[1/σ²]');
    expectClose(elbo.mean, c.terms.s, { abs: 1e-13 }, 's');
    expectClose(elbo.variance, c.terms.var_w, { abs: 1e-13 }, 'Var w');
  });

  it('the gradient equals the analytic reference (1e-8 of max) and the finite differences (1e-6 of max)', () => {
    const { grid, stats, logits } = setUp(c);
    const gradient = new Float64Array(logits.length);
    new DirectElbo(grid, stats).evaluate(logits, gradient);
    const analytic = [...c.grad_logits.flat(), ...c.grad_logits_sig];
    const fd = [...c.grad_logits_fd.flat(), ...c.grad_logits_sig_fd];
    expectClose(gradient, analytic, { absOfMax: 1e-8 }, 'gradient vs analytic');
    expectClose(gradient, fd, { absOfMax: 1e-6 }, 'gradient vs finite differences');
  });

  it('the predictive mean and variance equal enumeration to 1e-10', () => {
    const { grid, stats, logits } = setUp(c);
    const elbo = new DirectElbo(grid, stats);
    elbo.evaluate(logits);
    const phi = Float64Array.from(c.Phi_test.flat());
    c.predictive.forEach((ref: any, t: number) => {
      const m = directPredictiveMoments([1], elbo.mean, elbo.variance, elbo.expectedNoise, phi, t * c.b);
      expectClose(m.mean, ref.mean, { abs: 1e-10 }, `mean[${t}]`);
      expectClose(m.varianceF, ref.var_f, { abs: 1e-10 }, `var_f[${t}]`);
      expectClose(m.variance, ref.var_y, { abs: 1e-10 }, `var_y[${t}]`);
    });
  });
});

describe.each(cases.map((c) => [c.name, c]))('DIRECT fit on enumeration case %s', (_, c) => {
  const fixtureGrid = { support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig };
  const batch = { x: Float64Array.from(c.Phi.flat()), y: Float64Array.from(c.y), n: c.n, d: c.b };
  const ref = c.optimisation_reference;

  it('L-BFGS from the prior reaches at least the reference optimum from the prior, never above log p(y)', () => {
    const model = directFamily.create(c.b, fixtureGrid);
    model.update(batch);
    const p = model.posterior();
    expect(p.elbo).toBeLessThanOrEqual(ref.log_evidence + 1e-9);
    expect(p.elbo).toBeGreaterThanOrEqual(ref.from_prior.elbo - 1e-6);
    expect(p.converged).toBe(true);
    const elbo = new DirectElbo(model.grid, { b: c.b, gram: Float64Array.from(c.sufficient_statistics.PhiTPhi.flat()), phiTy: Float64Array.from(c.sufficient_statistics.PhiTy), yty: c.sufficient_statistics.yTy, n: c.n, records: c.n, complete: true });
    expect(elbo.evaluate(p.logits)).toBeCloseTo(p.elbo, 9);
  });

  it('eight seeded starts reach the best of the reference\'s 24 starts', () => {
    const model = directFamily.create(c.b, { ...fixtureGrid, restarts: 8, seed: 1 });
    model.update(batch);
    const p = model.posterior();
    expect(p.startElbos).toHaveLength(8);
    expect(p.elbo).toBe(Math.max(...p.startElbos));
    expect(p.elbo).toBeLessThanOrEqual(ref.log_evidence + 1e-9);
    expect(p.elbo).toBeGreaterThanOrEqual(ref.best_found.elbo - 1e-6);
  });
});

it('case D: L-BFGS alone from the prior stops in the worse mode the reference reports; CAVI-initialised it reaches the best one', () => {
  const c = cases.find((k) => k.name.startsWith('D'));
  const grid = { support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig };
  const batch = { x: Float64Array.from(c.Phi.flat()), y: Float64Array.from(c.y), n: c.n, d: c.b };
  const paper = directFamily.create(c.b, { ...grid, caviSweeps: 0 });
  paper.update(batch);
  expect(paper.posterior().elbo).toBeLessThan(c.optimisation_reference.best_found.elbo - 30);
  expect(paper.posterior().elbo).toBeGreaterThanOrEqual(c.optimisation_reference.from_prior.elbo - 1e-6);
  const initialised = directFamily.create(c.b, grid);
  initialised.update(batch);
  expect(initialised.posterior().elbo).toBeGreaterThanOrEqual(c.optimisation_reference.best_found.elbo - 1e-6);
  expect(initialised.posterior().elbo).toBeLessThanOrEqual(c.optimisation_reference.log_evidence + 1e-9);
});

it('CAVI sweeps never lower the ELBO and reach a stationary point of it', () => {
  for (const c of cases) {
    const grid = buildDirectGrid(c.b, { support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig }, true);
    const stats: DirectStatistics = { b: c.b, gram: new Float64Array(c.b * c.b), phiTy: new Float64Array(c.b), yty: 0, n: 0, records: 0, complete: true };
    accumulateDirect(stats, Float64Array.from(c.Phi.flat()), c.n, Float64Array.from(c.y));
    const elbo = new DirectElbo(grid, stats);
    const cavi = new DirectCavi(grid, stats);
    const logits = Float64Array.from([...c.logits.flat(), ...c.logits_sig]);
    let previous = elbo.evaluate(logits);
    for (let k = 0; k < 30; k++) {
      cavi.run(logits, 1);
      const value = elbo.evaluate(logits);
      expect(value).toBeGreaterThanOrEqual(previous - 1e-9 * Math.abs(previous));
      previous = value;
    }
    cavi.run(logits, 2000, 1e-13);
    const gradient = new Float64Array(elbo.size);
    elbo.evaluate(logits, gradient);
    expect(Math.max(...gradient.map(Math.abs))).toBeLessThan(1e-6);
  }
});
