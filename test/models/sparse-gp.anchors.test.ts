import { describe, expect, it } from 'vitest';
import { RbfKernel } from '../../src/kernels/rbf-kernel.js';
import { GaussianLikelihood } from '../../src/likelihoods/gaussian-likelihood.js';
import { gpExactFamily } from '../../src/models/gp-exact/family.js';
import { titsiasBound } from '../../src/models/gp-exact/titsias-bound.js';
import { ElboObjective } from '../../src/models/sparse-gp/elbo-objective.js';
import { sparseGpFamily } from '../../src/models/sparse-gp/family.js';
import { SparseGpEvaluator } from '../../src/models/sparse-gp/sparse-gp-evaluator.js';
import { expectClose, flat } from '../helpers/close.js';
import { linspaceRows, oneInputData, regressionAnchors, regressionMetrics } from './sparse-gp-benchmark-data.js';

const train = oneInputData('regression_train.csv');
const test = oneInputData('regression_test.csv');
const anchors = regressionAnchors();
const titsias = anchors.titsias_fixed_Z;
const Z = Float64Array.from(linspaceRows(-3, 3, 20).flat());
const JITTER = 1e-6;

describe('Titsias collapsed bound and the uncollapsed ELBO (benchmark_anchors.json)', () => {
  const kernel = new RbfKernel(1, false, titsias.s ** 2, titsias.ell);
  const result = titsiasBound(kernel, titsias.sn ** 2, Z, 20, JITTER, train.x, train.y, train.n);

  it('reproduces the bound and the optimal q(u) at the fixed-Z optimum', () => {
    expectClose(result.bound, titsias.bound, { rel: 1e-9 }, 'bound');
    expectClose(result.m, titsias.q_opt_m, { rel: 1e-6, absOfMax: 1e-8 }, 'q_opt_m');
    expectClose(result.L, flat(titsias.q_opt_L), { rel: 1e-6, absOfMax: 1e-7 }, 'q_opt_L');
    const exactKernel = new RbfKernel(1, false, anchors.exact_gp.s ** 2, anchors.exact_gp.ell);
    expectClose(titsiasBound(exactKernel, anchors.exact_gp.sn ** 2, Z, 20, JITTER, train.x, train.y, train.n).bound, titsias.bound_at_exact_gp_hyperparameters, { rel: 1e-9 }, 'bound at exact-GP hyperparameters');
  });

  it('the β = 1 negated ELBO at the stored q(u) equals −bound (README: 6e-12)', () => {
    const p = { kernel, noiseVariance: titsias.sn ** 2, meanConstant: 0, M: 20, Z, m: Float64Array.from(titsias.q_opt_m), L: Float64Array.from(flat(titsias.q_opt_L)), whitened: false, jitter: JITTER, beta: 1 };
    const value = new SparseGpEvaluator(20, 1).evaluate(p, train.x, train.y, train.n, new ElboObjective(new GaussianLikelihood(titsias.sn ** 2)), 1);
    expect(Math.abs(value + titsias.bound)).toBeLessThan(1e-9);
    expectClose(value, titsias.uncollapsed_neg_elbo_at_q_opt_beta1, { rel: 1e-12 }, 'uncollapsed');
  });

  it('the ELBO hyperparameter gradient at the optimal q(u) is the bound\'s (envelope theorem), ≈ 0 at the optimum', () => {
    const g = { m: new Float64Array(20), L: new Float64Array(400), kernel: new Float64Array(2), Z: new Float64Array(20), logNoise: 0, meanConstant: 0 };
    const p = { kernel, noiseVariance: titsias.sn ** 2, meanConstant: 0, M: 20, Z, m: result.m, L: result.L, whitened: false, jitter: JITTER, beta: 1 };
    new SparseGpEvaluator(20, 1).evaluate(p, train.x, train.y, train.n, new ElboObjective(new GaussianLikelihood(titsias.sn ** 2)), 1, g, true);
    // README: |∇ bound| at the optimum is 3e-6 (in log s, log ℓ, log sn).
    for (const v of [...g.kernel, g.logNoise]) expect(Math.abs(v)).toBeLessThan(1e-4);
    const h = 1e-5;
    const bump = (ds: number) => titsiasBound(new RbfKernel(1, false, titsias.s ** 2 * Math.exp(ds), titsias.ell * Math.exp(1.3 * ds)), titsias.sn ** 2, Z, 20, JITTER, train.x, train.y, train.n).bound;
    const directional = -(bump(h) - bump(-h)) / (2 * h);
    expectClose(g.kernel[0] + 1.3 * g.kernel[1], directional, { abs: 1e-5 }, 'directional derivative');
  });
});

describe('exact GP regression (benchmark_anchors.json exact_gp; README §6 tolerances)', () => {
  it('maximises the marginal likelihood to the anchor and predicts as it does', () => {
    const model = gpExactFamily.create(1, { kernel: { variance: 1, lengthscale: 1 }, noiseVariance: 0.1 });
    model.update({ x: train.x, y: train.y, n: train.n, d: 1 });
    const h = model.hyperparameters();
    const exact = anchors.exact_gp;
    expect(Math.abs(0.5 * Math.log(h.variance) - Math.log(exact.s))).toBeLessThan(1e-3);
    expect(Math.abs(Math.log(h.lengthscale[0]) - Math.log(exact.ell))).toBeLessThan(1e-3);
    expect(Math.abs(0.5 * Math.log(h.noiseVariance) - Math.log(exact.sn))).toBeLessThan(1e-3);
    expect(Math.abs(model.logMarginal - exact.log_marginal_likelihood)).toBeLessThan(1e-4);
    const p = model.predictLatent(test.x, test.n);
    const metrics = regressionMetrics(p.mean, p.variance, h.noiseVariance, test.y);
    expect(Math.abs(metrics.nll - exact.test_nll)).toBeLessThan(1e-4);
    expect(Math.abs(metrics.mse - exact.test_mse)).toBeLessThan(1e-4);
  });
});

describe('trained sparse GPs reach the fixed-hyperparameter anchors within 2% (test NLL and MSE)', () => {
  // Hyperparameters and Z fixed at the Titsias optimum (the paper's fixed-DLM); full-batch Adam, lr 0.05,
  // whitened. The bench (bench/sparse-gp.bench.ts) runs the paper-length training; 600 steps suffice here.
  const cases = [
    ['elbo', 1, 'elbo_beta1'],
    ['dlm', 1, 'dlm_beta1'],
    ['dlm', 0.1, 'dlm_beta0.1'],
    ['elbo', 0.1, 'elbo_beta0.1'],
  ] as const;
  it.each(cases)('%s β = %s', (objective, beta, key) => {
    const model = sparseGpFamily.create(1, {
      objective, beta, M: 20, Z: linspaceRows(-3, 3, 20), kernel: { variance: titsias.s ** 2, lengthscale: titsias.ell },
      noiseVariance: titsias.sn ** 2, fixed: ['kernel', 'noise', 'Z'], learningRate: 0.05,
    });
    model.fit(train.x, train.y, train.n, { maxIterations: 600, window: 50, tolerance: 2e-7 });
    const p = model.predictLatent(test.x, test.n);
    const metrics = regressionMetrics(p.mean, p.variance, titsias.sn ** 2, test.y);
    const anchor = anchors.fixed_hyper_fits[key];
    expect(Math.abs(metrics.nll / anchor.test_nll - 1)).toBeLessThan(0.02);
    expect(Math.abs(metrics.mse / anchor.test_mse - 1)).toBeLessThan(0.02);
    // 600 steps leave the objective within 5% of the L-BFGS minimum (the bench runs to convergence).
    expect(Math.abs(model.objectiveValue(train.x, train.y, train.n) / anchor.objective_min - 1)).toBeLessThan(0.05);
  });

  it('square-loss DLM: closed-form m gives the anchor test MSE (β = 1 and 0.1)', () => {
    for (const [beta, key] of [[1, 'sq_dlm_beta1'], [0.1, 'sq_dlm_beta0.1']] as const) {
      const model = sparseGpFamily.create(1, {
        objective: 'sq-dlm', beta, M: 20, Z: linspaceRows(-3, 3, 20), kernel: { variance: titsias.s ** 2, lengthscale: titsias.ell },
        noiseVariance: titsias.sn ** 2, fixed: ['kernel', 'noise', 'Z'],
      });
      model.fit(train.x, train.y, train.n, { maxIterations: 1 });
      const p = model.predictLatent(test.x, test.n);
      expectClose(regressionMetrics(p.mean, p.variance, titsias.sn ** 2, test.y).mse, anchors.fixed_hyper_fits[key].test_mse, { rel: 1e-6 }, key);
    }
  });
});
