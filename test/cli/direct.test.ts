import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-direct-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vbstream = runVbstream;

function csv(path: string, rows: number[][], y?: number[]): string {
  const width = rows[0].length;
  const header = [...Array.from({ length: width }, (_, j) => `phi${j + 1}`), ...(y === undefined ? [] : ['y'])].join(',');
  writeFileSync(path, `${header}\n${rows.map((r, i) => [...r, ...(y === undefined ? [] : [y[i]])].join(',')).join('\n')}\n`);
  return path;
}

describe('vbstream fit --model direct', () => {
  const cases = readReferenceJson('direct', 'enumeration_cases.json').cases;

  it.each<[string, any]>(cases.map((c: any): [string, any] => [c.name, c]))('case %s: eight starts reach the best reference optimum, never above log p(y); predictions are the exact moments', (name, c: any) => {
    const train = csv(join(work, `${name}.csv`), c.Phi, c.y);
    const test = csv(join(work, `${name}-test.csv`), c.Phi_test);
    const out = join(work, `${name}.json`);
    const pred = join(work, `${name}-pred.json`);
    const options = JSON.stringify({ support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig, restarts: 8, seed: 1 });
    const run = vbstream('fit', '--model', 'direct', '--input', train, '--out', out, '--predict', test, '--predictions', pred, '--options', options);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    const ref = c.optimisation_reference;
    expect(posterior.family).toBe('direct');
    expect(posterior.dim).toBe(c.b);
    expect(posterior.extras.elbo).toBeLessThanOrEqual(ref.log_evidence + 1e-9);
    expect(posterior.extras.elbo).toBeGreaterThanOrEqual(ref.best_found.elbo - 1e-6);
    expect(posterior.extras.support).toEqual(c.Wbar);
    expect(posterior.extras.noiseSupport).toEqual(c.sig2);
    const mean = posterior.extras.probs.map((row: number[], j: number) => row.reduce((s, q, m) => s + q * c.Wbar[j][m], 0));
    expectClose(posterior.mean, mean, { abs: 1e-14 }, 'mean');
    posterior.cov.forEach((row: number[], j: number) => row.forEach((v, k) => { if (k !== j) expect(v).toBe(0); }));
    const noise = posterior.extras.noiseProbs.reduce((s: number, q: number, k: number) => s + q * c.sig2[k], 0);
    const predictions = JSON.parse(readFileSync(pred, 'utf8'));
    c.Phi_test.forEach((phi: number[], t: number) => {
      expectClose(predictions.mean[t], phi.reduce((s, v, j) => s + v * posterior.mean[j], 0), { abs: 1e-12 }, 'pred mean');
      const varF = phi.reduce((s, v, j) => s + v * v * posterior.cov[j][j], 0);
      expectClose(predictions.varianceF[t], varF, { abs: 1e-12 }, 'var_f');
      expectClose(predictions.variance[t], varF + noise, { abs: 1e-12 }, 'var_y');
    });
  });

  it('RFF features: raw inputs in, b = 2·count weights out, the map in extras', () => {
    const c = cases.find((k: any) => k.rff !== undefined);
    const train = csv(join(work, 'rff.csv'), c.rff.X, c.y);
    const out = join(work, 'rff.json');
    const run = vbstream('fit', '--model', 'direct', '--input', train, '--out', out, '--options', '{"features":{"type":"rff","count":10,"lengthscale":[1,2],"seed":3},"supportSize":5,"sigmaW":0.5}');
    expect(run.stderr).toBe('');
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.dim).toBe(20);
    expect(posterior.extras.features.omega).toHaveLength(2);
    expect(posterior.extras.features.lengthscales).toEqual([1, 2]);
    expect(posterior.extras.sparsity).toBeGreaterThanOrEqual(0);
  });

  it('bad options and bad rows exit non-zero naming the field or the row', () => {
    const train = csv(join(work, 'small.csv'), [[1, 2], [3, 4], [5, 6]], [1, 2, 3]);
    const out = join(work, 'never.json');
    const bad = vbstream('fit', '--model', 'direct', '--input', train, '--out', out, '--options', '{"support":[[1,0],[0,1]]}');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/support\[0\]\[1\]/);
    expect(vbstream('fit', '--model', 'direct', '--input', train, '--out', out, '--options', '{"sigma":1}').stderr).toMatch(/unknown option/);
    writeFileSync(join(work, 'nan.csv'), 'a,b,y\n1,2,3\n1,x,2\n');
    const nan = vbstream('fit', '--model', 'direct', '--input', join(work, 'nan.csv'), '--out', out);
    expect(nan.code).not.toBe(0);
    expect(nan.stderr).toMatch(/row 2/);
  });
});

describe('vbstream fit --model direct-logit', () => {
  const c = readReferenceJson('direct', 'logistic_cases.json').cases[0];

  it('reaches the reference maximiser of the Theorem-2 bound and predicts p(y = 1) by the probit approximation', () => {
    const train = csv(join(work, 'l1.csv'), c.Phi, c.y);
    const out = join(work, 'l1.json');
    const pred = join(work, 'l1-pred.json');
    const options = JSON.stringify({ support: c.Wbar, priorProbs: c.prior_P, epochs: 3000, learningRate: 0.02 });
    const run = vbstream('fit', '--model', 'direct-logit', '--input', train, '--out', out, '--predict', train, '--predictions', pred, '--options', options);
    expect(run.stderr).toBe('');
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.family).toBe('direct-logit');
    expect(posterior.extras.elboBound).toBeGreaterThan(c.q_cases.argmax_theorem2_elbo_standard.standard.elbo_theorem2 - 0.05);
    const prob: number[] = JSON.parse(readFileSync(pred, 'utf8')).prob;
    expect(prob).toHaveLength(c.n);
    c.Phi.forEach((phi: number[], i: number) => {
      const mu = phi.reduce((s, v, j) => s + v * posterior.mean[j], 0);
      const v = phi.reduce((s, f, j) => s + f * f * posterior.extras.variance[j], 0);
      expectClose(prob[i], 1 / (1 + Math.exp(-mu / Math.sqrt(1 + (Math.PI * v) / 8))), { abs: 1e-12 }, 'prob');
    });
    const accuracy = prob.filter((p, i) => (p > 0.5 ? 1 : 0) === c.y[i]).length / c.n;
    expect(accuracy).toBeGreaterThanOrEqual(0.7);
  });

  it('a label outside 0/1 names its file row', () => {
    writeFileSync(join(work, 'bad-label.csv'), 'a,b,y\n1,2,1\n1,3,0\n1,2,2\n');
    const run = vbstream('fit', '--model', 'direct-logit', '--input', join(work, 'bad-label.csv'), '--out', join(work, 'never.json'));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/row 3/);
  });
});

describe('vbstream fit --model direct-bnn', () => {
  it('fits the quadratic network, writes the posterior of its b weights and predicts the model\'s exact moments', () => {
    const rows: number[][] = [];
    const y: number[] = [];
    for (let r = 0; r < 60; r++) {
      const x1 = Math.sin(1.3 * r);
      const x2 = Math.cos(0.7 * r);
      rows.push([x1, x2]);
      y.push(0.9 * (x1 - 0.4 * x2) ** 2 + 0.1 * Math.sin(5 * r));
    }
    const train = csv(join(work, 'bnn.csv'), rows, y);
    const out = join(work, 'bnn.json');
    const pred = join(work, 'bnn-pred.json');
    const run = vbstream('fit', '--model', 'direct-bnn', '--input', train, '--out', out, '--predict', train, '--predictions', pred, '--options', JSON.stringify({ hidden: 2, restarts: 2 }));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.family).toBe('direct-bnn');
    expect(posterior.dim).toBe(2 * 3 + 2 + 1);
    expect(posterior.extras.hidden).toBe(2);
    expect(posterior.extras.startElbos).toHaveLength(2);
    const predictions = JSON.parse(readFileSync(pred, 'utf8'));
    expect(predictions.mean).toHaveLength(60);
    predictions.variance.forEach((v: number, i: number) => expect(v).toBeGreaterThanOrEqual(predictions.varianceF[i]));
  });
});
