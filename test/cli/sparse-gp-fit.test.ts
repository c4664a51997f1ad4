import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReferenceCsv, readReferenceJson } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-sgp-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vbstream = runVbstream;

/** The reference CSV with only its x and y columns (the f column is the noise-free truth, not a feature). */
function xyCsv(file: string): string {
  const t = readReferenceCsv('sgp', file);
  const column = t.features.indexOf('x');
  const path = join(work, file);
  writeFileSync(path, `x,y\n${Array.from({ length: t.n }, (_, i) => `${t.x[i * t.d + column]},${t.y[i]}`).join('\n')}\n`);
  return path;
}

const anchors = readReferenceJson('sgp', 'benchmark_anchors.json');
const titsias = anchors.regression.titsias_fixed_Z;
const Z = Array.from({ length: 20 }, (_, i) => [-3 + (6 * i) / 19]);
const regressionTrain = xyCsv('regression_train.csv');
const regressionTest = xyCsv('regression_test.csv');
const testY = readReferenceCsv('sgp', 'regression_test.csv').y;

function nll(mean: number[], variance: number[], y: Float64Array): number {
  return mean.reduce((acc, m, i) => acc + 0.5 * (Math.log(2 * Math.PI * variance[i]) + (y[i] - m) ** 2 / variance[i]), 0) / y.length;
}

describe('vbstream fit with the sparse-GP ids', () => {
  it('sparse-gp with objective dlm and fixed hyperparameters and Z reaches the DLM anchor; outputs carry q(u), Z, hyperparameters and y/f moments', () => {
    const out = join(work, 'dlm.json');
    const predictions = join(work, 'dlm-pred.json');
    const options = { likelihood: 'gaussian', objective: 'dlm', M: 20, beta: 1, seed: 1, kernel: { type: 'rbf', variance: titsias.s ** 2, lengthscale: titsias.ell }, noiseVariance: titsias.sn ** 2, Z, fixed: ['kernel', 'noise', 'Z'], iterations: 600, tolerance: 1e-7 };
    const run = vbstream('fit', '--model', 'sparse-gp', '--input', regressionTrain, '--out', out, '--predict', regressionTest, '--predictions', predictions, '--options', JSON.stringify(options));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.family).toBe('sparse-gp');
    expect(posterior.mean).toHaveLength(20);
    expect(posterior.cov).toHaveLength(20);
    expect(posterior.extras.Z).toEqual(Z);
    expect(posterior.extras.m).toEqual(posterior.mean);
    expect(posterior.extras.kernel.lengthscale).toBeCloseTo(titsias.ell, 12);
    expect(posterior.extras.noiseVariance).toBeCloseTo(titsias.sn ** 2, 12);
    const anchor = anchors.regression.fixed_hyper_fits.dlm_beta1;
    expect(Math.abs(posterior.extras.objective / anchor.objective_min - 1)).toBeLessThan(0.05);
    const pred = JSON.parse(readFileSync(predictions, 'utf8'));
    for (let i = 0; i < 5; i++) expect(pred.variance[i]).toBeCloseTo(pred.fVariance[i] + titsias.sn ** 2, 12);
    expect(pred.mean).toEqual(pred.fMean);
    expect(Math.abs(nll(pred.mean, pred.variance, testY) / anchor.test_nll - 1)).toBeLessThan(0.02);
  });

  it('sparse-gp with objective sq-dlm gives the closed-form anchor MSE; gp-exact matches the exact-GP anchor', () => {
    const sq = join(work, 'sq-pred.json');
    const fixed = { objective: 'sq-dlm', M: 20, beta: 0.1, kernel: { type: 'rbf', variance: titsias.s ** 2, lengthscale: titsias.ell }, noiseVariance: titsias.sn ** 2, Z, fixed: ['kernel', 'noise', 'Z'], iterations: 1 };
    expect(vbstream('fit', '--model', 'sparse-gp', '--input', regressionTrain, '--out', join(work, 'sq.json'), '--predict', regressionTest, '--predictions', sq, '--options', JSON.stringify(fixed)).code).toBe(0);
    const mse = (mean: number[]) => mean.reduce((a, m, i) => a + (testY[i] - m) ** 2, 0) / testY.length;
    expect(mse(JSON.parse(readFileSync(sq, 'utf8')).mean)).toBeCloseTo(anchors.regression.fixed_hyper_fits['sq_dlm_beta0.1'].test_mse, 6);
    const exact = join(work, 'exact-pred.json');
    const run = vbstream('fit', '--model', 'gp-exact', '--input', regressionTrain, '--out', join(work, 'exact.json'), '--predict', regressionTest, '--predictions', exact, '--options', '{"noiseVariance":0.1}');
    expect(run.stderr).toBe('');
    const posterior = JSON.parse(readFileSync(join(work, 'exact.json'), 'utf8'));
    expect(posterior.extras.logMarginalLikelihood).toBeCloseTo(anchors.regression.exact_gp.log_marginal_likelihood, 4);
    const pred = JSON.parse(readFileSync(exact, 'utf8'));
    expect(nll(pred.mean, pred.variance, testY)).toBeCloseTo(anchors.regression.exact_gp.test_nll, 4);
  });

  it('sparse-gp-classifier (probit by default) writes prob writes prob; bad options are refused and nothing is written', () => {
    const t = readReferenceCsv('sgp', 'classification_train.csv');
    const path = join(work, 'cls.csv');
    writeFileSync(path, `x,y\n${Array.from({ length: t.n }, (_, i) => `${t.x[i * t.d]},${t.y[i]}`).join('\n')}\n`);
    const predictions = join(work, 'cls-pred.json');
    const run = vbstream('fit', '--model', 'sparse-gp-classifier', '--input', path, '--out', join(work, 'cls.json'), '--predict', path, '--predictions', predictions,
      '--options', JSON.stringify({ M: 10, kernel: { variance: 4, lengthscale: 1 }, fixed: ['kernel', 'Z'], iterations: 300 }));
    expect(run.stderr).toBe('');
    const pred = JSON.parse(readFileSync(predictions, 'utf8'));
    expect(pred.prob).toHaveLength(t.n);
    expect(JSON.parse(readFileSync(join(work, 'cls.json'), 'utf8')).family).toBe('sparse-gp-classifier');
    const out = join(work, 'never.json');
    expect(vbstream('fit', '--model', 'sparse-gp-classifier', '--input', path, '--out', out, '--options', '{"likelihood":"cauchy"}').stderr).toMatch(/field likelihood, value "cauchy"/);
    expect(vbstream('fit', '--model', 'sparse-gp-classifier', '--input', path, '--out', out, '--options', '{"objective":"dlm","M":-3}').stderr).toMatch(/field M, value -3/);
    expect(vbstream('fit', '--model', 'sparse-gp-classifier', '--input', path, '--out', out, '--options', '{"objective":"sq-dlm"}').stderr).toMatch(/square-loss DLM is for regression/);
    expect(vbstream('fit', '--model', 'sparse-gp-classifier', '--input', regressionTrain, '--out', out).stderr).toMatch(/binary label must be 0\/1 or -1\/1.*row 1, column y/);
    expect(vbstream('fit', '--model', 'sparse-gp', '--input', path, '--out', out, '--options', '{"likelihood":"probit"}').stderr).toMatch(/likelihood probit belongs to --model sparse-gp-classifier, not sparse-gp/);
    expect(vbstream('fit', '--model', 'sparse-gp', '--input', path, '--out', out, '--options', '{"objective":"mle"}').stderr).toMatch(/must be one of elbo, dlm, sq-dlm \(field objective/);
    expect(existsSync(out)).toBe(false);
  });

  it('the earlier ids sgp-elbo, sgp-dlm and sgp-sq-dlm still work, with a deprecation line naming the family the likelihood picks', () => {
    const fixed = { M: 20, beta: 0.1, kernel: { type: 'rbf', variance: titsias.s ** 2, lengthscale: titsias.ell }, noiseVariance: titsias.sn ** 2, Z, fixed: ['kernel', 'noise', 'Z'], iterations: 1 };
    for (const objective of ['elbo', 'dlm', 'sq-dlm']) {
      const before = join(work, `old-${objective}.json`);
      const after = join(work, `new-${objective}.json`);
      const run = vbstream('fit', '--model', `sgp-${objective}`, '--input', regressionTrain, '--out', before, '--options', JSON.stringify(fixed));
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(`vbstream fit: --model sgp-${objective} is deprecated; use --model sparse-gp with --options '{"objective":"${objective}"}'\n`);
      expect(vbstream('fit', '--model', 'sparse-gp', '--input', regressionTrain, '--out', after, '--options', JSON.stringify({ ...fixed, objective })).code).toBe(0);
      expect(readFileSync(before, 'utf8')).toBe(readFileSync(after, 'utf8'));
    }
    const classifier = vbstream('fit', '--model', 'sgp-elbo', '--input', regressionTrain, '--out', join(work, 'never.json'), '--options', '{"likelihood":"probit"}');
    expect(classifier.stderr).toMatch(/use --model sparse-gp-classifier/);
  });
});
