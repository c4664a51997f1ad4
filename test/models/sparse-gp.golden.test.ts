import { describe, expect, it } from 'vitest';
import { ElboObjective } from '../../src/models/sparse-gp/elbo-objective.js';
import { LogLossDlmObjective } from '../../src/models/sparse-gp/log-loss-dlm-objective.js';
import type { SparseGpObjective } from '../../src/models/sparse-gp/point-loss.js';
import { BmcDlmObjective } from '../../src/models/sparse-gp/bmc-dlm-objective.js';
import { squareLossMinimiser } from '../../src/models/sparse-gp/square-loss-minimiser.js';
import { SquareLossDlmObjective } from '../../src/models/sparse-gp/square-loss-dlm-objective.js';
import { SparseGpEvaluator } from '../../src/models/sparse-gp/sparse-gp-evaluator.js';
import type { SparseGpGradient } from '../../src/models/sparse-gp/sparse-gp-parameters.js';
import { expectClose, flat } from '../helpers/close.js';
import { objectiveCases, type ObjectiveCase } from './sparse-gp-fixture.js';

// README §6: values 1e-9·max(1,|b|); analytic gradients 1e-7·max(1,|g|).
const VALUE = { rel: 1e-9, abs: 1e-9 };
const GRAD = { rel: 1e-7, abs: 1e-7 };

function gradientBuffers(c: ObjectiveCase): SparseGpGradient {
  return { m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(c.params.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 };
}

function checkGradients(c: ObjectiveCase, g: SparseGpGradient, expected: any, withL: boolean, what: string): void {
  expectClose(g.m, expected.m, GRAD, `${what} m`);
  if (withL) expectClose(g.L, flat(expected.L), GRAD, `${what} L`);
  // the kernel is parameterised by log s², log ℓ; the fixture by log s (∂/∂log s = 2∂/∂log s²).
  expectClose(2 * g.kernel[0], expected.log_s, GRAD, `${what} log_s`);
  expectClose(Array.from(g.kernel.subarray(1)), flat(expected.log_ell), GRAD, `${what} log_ell`);
  if (expected.log_sn !== undefined) expectClose(2 * g.logNoise, expected.log_sn, GRAD, `${what} log_sn`);
  expectClose(g.Z, flat(expected.Z), GRAD, `${what} Z`);
}

describe('sparse-GP objectives reproduce objective_cases.json', () => {
  const cases = objectiveCases();
  it.each(cases.map((c) => [c.name, c] as const))('%s: Kuu, marginals and KL', (_, c) => {
    const evaluator = new SparseGpEvaluator(c.M, c.d);
    evaluator.evaluate(c.params, c.x, c.y, c.n, new ElboObjective(c.likelihood), 1);
    const kuu = new Float64Array(c.M * c.M);
    c.params.kernel.cross(c.params.Z, c.M, c.params.Z, c.M, kuu);
    expectClose(kuu, flat(c.raw.expected.Kuu), VALUE, 'Kuu');
    expectClose(evaluator.conditional.mu.subarray(0, c.n), c.raw.expected.mu, VALUE, 'mu');
    expectClose(evaluator.conditional.v.subarray(0, c.n), c.raw.expected.v, VALUE, 'v');
    expectClose(evaluator.regulariserValue, c.raw.expected.KL, VALUE, 'KL');
  });

  const objectives: [string, (c: ObjectiveCase) => SparseGpObjective, string, string, string][] = [
    ['elbo', (c) => new ElboObjective(c.likelihood), 'elbo_data_term', 'elbo_objective', 'elbo'],
    ['dlm', (c) => new LogLossDlmObjective(c.likelihood), 'dlm_data_term', 'dlm_objective', 'dlm'],
  ];
  for (const [id, make, dataKey, objectiveKey, gradKey] of objectives) {
    it.each(cases.map((c) => [c.name, c] as const))(`%s: ${id} value and every gradient`, (_, c) => {
      const evaluator = new SparseGpEvaluator(c.M, c.d);
      const g = gradientBuffers(c);
      const value = evaluator.evaluate(c.params, c.x, c.y, c.n, make(c), 1, g, true);
      expectClose(evaluator.dataValue, c.raw.expected[dataKey], VALUE, dataKey);
      expectClose(value, c.raw.expected[objectiveKey], VALUE, objectiveKey);
      checkGradients(c, g, c.raw.expected.grads[gradKey], true, id);
    });
  }

  it.each(cases.map((c) => [c.name, c] as const))('%s: square-loss DLM value and gradients', (_, c) => {
    const evaluator = new SparseGpEvaluator(c.M, c.d);
    const g = gradientBuffers(c);
    const value = evaluator.evaluate(c.params, c.x, c.y, c.n, new SquareLossDlmObjective(), 1, g, true);
    expectClose(value, c.raw.expected.sq_dlm.objective_at_m, VALUE, 'sq objective');
    checkGradients(c, g, c.raw.expected.grads.sq_dlm, false, 'sq-dlm');
    expect(g.logNoise).toBe(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: square-loss DLM closed-form minimiser and its value', (_, c) => {
    const mStar = new Float64Array(c.M);
    squareLossMinimiser(c.params, c.x, c.y, c.n, 1, mStar);
    expectClose(mStar, c.raw.expected.sq_dlm.m_star, VALUE, 'm_star');
    const value = new SparseGpEvaluator(c.M, c.d).evaluate({ ...c.params, m: mStar }, c.x, c.y, c.n, new SquareLossDlmObjective(), 1);
    expectClose(value, c.raw.expected.sq_dlm.objective_at_m_star, VALUE, 'objective_at_m_star');
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: bMC DLM with the stored draws (value, m and L gradients)', (_, c) => {
    const evaluator = new SparseGpEvaluator(c.M, c.d);
    const bmc = new BmcDlmObjective(c.likelihood, 10);
    bmc.useDraws(Float64Array.from(flat(c.raw.bmc_eps)), c.n);
    const g = gradientBuffers(c);
    const value = evaluator.evaluate(c.params, c.x, c.y, c.n, bmc, 1, g, false);
    expectClose(evaluator.dataValue, c.raw.expected.bmc_dlm_data_term, VALUE, 'bmc data term');
    expectClose(value, c.raw.expected.bmc_dlm_objective, VALUE, 'bmc objective');
    expectClose(g.m, c.raw.expected.grads.bmc_dlm.m, GRAD, 'bmc m');
    expectClose(g.L, flat(c.raw.expected.grads.bmc_dlm.L), GRAD, 'bmc L');
  });
});
