import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson, referencePath } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-pg-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vbstream = runVbstream;

const CAVI = { absOfMax: 1e-8 };

describe('vbstream fit --model pg-logit (mode sda: CAVI, mode svi: SVI)', () => {
  it('pg-logit on fig1_n100 reproduces the reference CAVI (μ, Σ, ELBO, iterations, first 20 ξ) and writes p(y = 1)', () => {
    const ref = readReferenceJson('pgvb', 'fig1_n100.json').cavi;
    const out = join(work, 'cavi.json');
    const predictions = join(work, 'cavi-pred.json');
    const run = vbstream('fit', '--model', 'pg-logit', '--input', referencePath('pgvb', 'fig1_n100.csv'), '--out', out,
      '--predict', referencePath('pgvb', 'fig1_n20.csv'), '--predictions', predictions, '--options', '{"prior":{"mean":0,"covariance":10}}');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.family).toBe('pg-logit');
    expectClose(posterior.mean, ref.mu, CAVI, 'mean');
    expectClose(posterior.cov, ref.Sigma, CAVI, 'cov');
    expectClose(posterior.extras.elbo, ref.elbo, { abs: 1e-8 }, 'elbo');
    expect(posterior.extras.iterations).toBe(ref.iterations);
    expectClose(posterior.extras.xi, ref.xi.slice(0, 20), CAVI, 'xi');
    const prob = JSON.parse(readFileSync(predictions, 'utf8')).prob;
    expect(prob).toHaveLength(20);
    expect(prob.every((p: number) => p > 0 && p < 1)).toBe(true);
  });

  it('pg-logit takes a full prior {"mean":[…],"covariance":[[…]]} and a relative tol', () => {
    const ref = readReferenceJson('pgvb', 's3_n1000_p25.json');
    const out = join(work, 's3.json');
    const options = JSON.stringify({ prior: { mean: ref.prior.mu0, covariance: ref.prior.Sigma0 }, tol: 1e-15 });
    const run = vbstream('fit', '--model', 'pg-logit', '--input', referencePath('pgvb', 's3_n1000_p25.csv'), '--out', out, '--options', options);
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expectClose(posterior.mean, ref.cavi.fixed_point.mu, { absOfMax: 1e-6 }, 'mean');
    expect(posterior.extras.iterations).toBeGreaterThan(ref.cavi.iterations);
  });

  it('pg-logit mode svi with cyclic single-record sampling reproduces svi_cyclic; epochs and minibatches are accepted', () => {
    const ref = readReferenceJson('pgvb', 'fig1_n100.json');
    const out = join(work, 'svi.json');
    const run = vbstream('fit', '--model', 'pg-logit', '--input', referencePath('pgvb', 'fig1_n100.csv'), '--out', out,
      '--options', '{"mode":"svi","tau":1,"kappa":0.75,"batchSize":1,"steps":10000,"sampling":"cyclic"}');
    expect(run.stderr).toBe('');
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expectClose(posterior.mean, ref.svi_cyclic.mu, { absOfMax: 1e-9 }, 'mean');
    expectClose(posterior.cov, ref.svi_cyclic.Sigma, { absOfMax: 1e-9 }, 'cov');
    expect(posterior.extras.iterations).toBe(10_000);
    expect(posterior.extras.elbo).toBeLessThanOrEqual(ref.cavi.fixed_point.elbo);
    const mini = join(work, 'svi-mini.json');
    expect(vbstream('fit', '--model', 'pg-logit', '--input', referencePath('pgvb', 'fig1_n1000.csv'), '--out', mini,
      '--options', '{"mode":"svi","batchSize":100,"epochs":5,"sampling":"permutation","seed":7}').code).toBe(0);
    expect(JSON.parse(readFileSync(mini, 'utf8')).extras.iterations).toBe(50);
  });

  it('refuses bad input and bad options with the row, column or field, and writes nothing', () => {
    const bad = join(work, 'bad.csv');
    const out = join(work, 'never.json');
    writeFileSync(bad, 'x1,x2,y\n1,0.5,1\n1,0.2,1\n1,0.1,2\n');
    for (const mode of ['sda', 'svi']) {
      const run = vbstream('fit', '--model', 'pg-logit', '--input', bad, '--out', out, '--options', JSON.stringify({ mode }));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/binary label must be 0\/1 or -1\/1.*row 3, column y, value 2/);
    }
    const good = join(work, 'good.csv');
    writeFileSync(good, 'x1,x2,y\n1,0.5,1\n1,-0.2,0\n1,0.1,1\n');
    const cases: [string, string, RegExp][] = [
      ['svi', '{"kappa":0.5}', /must be a number in \(0.5, 1\] \(field kappa, value 0.5\)/],
      ['svi', '{"steps":10,"epochs":1}', /steps or epochs, not both/],
      ['svi', '{"batchSize":4}', /batch size exceeds the 3 rows \(field batchSize, value 4\)/],
      ['svi', '{"sampling":"random"}', /must be one of iid, permutation, cyclic \(field sampling/],
      ['sda', '{"prior":{"covariance":[[1,0],[0.5,1]]}}', /symmetric \(field prior.covariance\[1\]\[0\], value 0.5\)/],
      ['sda', '{"prior":{"mean":[0,"a"]}}', /finite number \(field prior.mean\[1\], value "a"\)/],
      ['sda', '{"prior":{"variance":2}}', /unknown pg-logit option.*field prior.variance/],
      ['sda', '{"kappa":0.7}', /option kappa applies to pg-logit mode svi, not sda \(field kappa\)/],
      ['sda', '{"mode":"cavi"}', /must be one of sda, svi \(field mode/],
    ];
    for (const [mode, options, message] of cases) {
      const run = vbstream('fit', '--model', 'pg-logit', '--input', good, '--out', out, '--options', JSON.stringify({ mode, ...JSON.parse(options) }));
      expect(run.code, options).not.toBe(0);
      expect(run.stderr).toMatch(message);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('the earlier ids pg-cavi and pg-svi still work, with a deprecation line, and give the same posterior', () => {
    const input = referencePath('pgvb', 'fig1_n100.csv');
    for (const [old, mode] of [['pg-cavi', 'sda'], ['pg-svi', 'svi']]) {
      const before = join(work, `${old}.json`);
      const after = join(work, `${old}-now.json`);
      const run = vbstream('fit', '--model', old, '--input', input, '--out', before, '--options', '{"prior":{"mean":0,"covariance":10}}');
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(`vbstream fit: --model ${old} is deprecated; use --model pg-logit with --options '{"mode":"${mode}"}'\n`);
      expect(vbstream('fit', '--model', 'pg-logit', '--input', input, '--out', after, '--options', JSON.stringify({ mode, prior: { mean: 0, covariance: 10 } })).code).toBe(0);
      expect(readFileSync(before, 'utf8')).toBe(readFileSync(after, 'utf8'));
    }
  });
});
