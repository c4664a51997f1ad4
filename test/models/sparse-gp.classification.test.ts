import { describe, expect, it } from 'vitest';
import { sparseGpClassifierFamily, sparseGpFamily, type SparseGpModel } from '../../src/models/sparse-gp/family.js';
import { betaGrid, selectBeta } from '../../src/models/sparse-gp/beta-selection.js';
import { classificationAnchors, linspaceRows, oneInputData, regressionAnchors } from './sparse-gp-benchmark-data.js';

const train = oneInputData('classification_train.csv');
const test = oneInputData('classification_test.csv');
const anchors = classificationAnchors().fixed_hyper_fits;

/** Mean test log loss of a classifier's predictive probabilities. */
function testNll(model: SparseGpModel): number {
  const latent = model.predictLatent(test.x, test.n);
  let loss = 0;
  for (let i = 0; i < test.n; i++) loss -= model.predictiveFromLatent(latent.mean[i], latent.variance[i]).logProb(test.y[i]);
  return loss / test.n;
}

function classifier(likelihood: 'bernoulli-probit' | 'bernoulli-logit', objective: 'elbo' | 'dlm', beta: number): SparseGpModel {
  return sparseGpClassifierFamily.create(1, {
    likelihood, objective, beta, M: 10, Z: linspaceRows(0, 5, 10), kernel: { variance: 4, lengthscale: 1 }, fixed: ['kernel', 'Z'], learningRate: 0.05,
  });
}

describe('VI-PER illustrative GP classification (benchmark_anchors.json classification)', () => {
  it.each([['elbo', 1, 'elbo_beta1'], ['dlm', 1, 'dlm_beta1'], ['dlm', 0.1, 'dlm_beta0.1'], ['elbo', 0.1, 'elbo_beta0.1']] as const)('probit %s β = %s (%s): test NLL and objective within 2 percent of the anchor', (objective, beta, key) => {
    const model = classifier('bernoulli-probit', objective, beta);
    model.fit(train.x, train.y, train.n, { maxIterations: 800, window: 20, tolerance: 1e-7 });
    expect(Math.abs(testNll(model) / anchors[key].test_nll - 1)).toBeLessThan(0.02);
    expect(Math.abs(model.objectiveValue(train.x, train.y, train.n) / anchors[key].objective_min - 1)).toBeLessThan(0.02);
  });

  it('logit ELBO through the VI-PER bound trains, and its test NLL sits next to the probit fits', () => {
    const model = classifier('bernoulli-logit', 'elbo', 1);
    const { iterations } = model.fit(train.x, train.y, train.n, { maxIterations: 800, window: 20, tolerance: 1e-7 });
    const nll = testNll(model);
    expect(iterations).toBeGreaterThan(20);
    // logit and probit differ in scale (σ(f) ≈ Φ(0.59 f)) at the same fixed kernel; the test NLLs stay close.
    expect(Math.abs(nll - anchors.elbo_beta1.test_nll)).toBeLessThan(0.05);
  });
});

describe('β selection on a validation split', () => {
  it('the grid is [n, n/2, …, 0.01]', () => {
    expect(betaGrid(8)).toEqual([8, 4, 2, 1, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.01]);
  });

  it('scores every β on the last 20% and returns the best', () => {
    const data = oneInputData('regression_train.csv');
    const t = regressionAnchors().titsias_fixed_Z;
    const make = (beta: number) => sparseGpFamily.create(1, {
      objective: 'dlm', beta, M: 10, Z: linspaceRows(-3, 3, 10), kernel: { variance: t.s ** 2, lengthscale: t.ell }, noiseVariance: t.sn ** 2, fixed: ['kernel', 'noise', 'Z'], learningRate: 0.1,
    });
    const grid = [100, 1, 0.01];
    const result = selectBeta(make, data.x, data.y, 150, 1, { maxIterations: 150 }, grid);
    expect(result.scores.map((s) => s.beta)).toEqual(grid);
    expect(result.scores.every((s) => Number.isFinite(s.logLoss))).toBe(true);
    expect(result.scores.find((s) => s.beta === result.beta)?.logLoss).toBe(Math.min(...result.scores.map((s) => s.logLoss)));
  });
});
