import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson, referencePath } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';
import { separableStream } from '../helpers/separable-stream.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vbstream = runVbstream;

const MATRIX = { rel: 1e-6, absOfMax: 1e-9 };

describe('vbstream fit on the VBLinLogit fixtures', () => {
  const cases = [
    ['vb-linear', 'lin_basic', 'vb_linear_fit'],
    ['vb-linear-ard', 'lin_ard', 'vb_linear_fit_ard'],
    ['vb-logit', 'logit_basic', 'vb_logit_fit'],
    ['vb-logit-ard', 'logit_ard', 'vb_logit_fit_ard'],
    ['vb-logit-online', 'logit_tiny', 'vb_logit_fit_iter'],
  ] as const;
  it.each(cases)('%s on %s reproduces %s', (model, dataset, block) => {
    const ref = readReferenceJson('vblinlogit', `${dataset}.json`)[block];
    const out = join(work, `${model}.json`);
    const predictions = join(work, `${model}-pred.json`);
    // The reference vb_linear_fit_ard does not prune (null: pruneThreshold Infinity).
    const options = model === 'vb-linear-ard' ? ['--options', '{"pruneThreshold":null}'] : [];
    const run = vbstream('fit', '--model', model, '--input', referencePath('vblinlogit', `${dataset}_train.csv`), '--out', out,
      '--predict', referencePath('vblinlogit', `${dataset}_test.csv`), '--predictions', predictions, ...options);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    expect(posterior.family).toBe(model);
    expect(posterior.dim).toBe(ref.outputs.w.length);
    expectClose(posterior.mean, ref.outputs.w, MATRIX, 'mean');
    expectClose(posterior.extras.V, ref.outputs.V, MATRIX, 'extras.V');
    expectClose(posterior.extras.invV, ref.outputs.invV, MATRIX, 'extras.invV');
    expectClose(posterior.extras.logdetV, ref.outputs.logdetV, { rel: 1e-8 }, 'logdetV');
    const pred = JSON.parse(readFileSync(predictions, 'utf8'));
    if (model.startsWith('vb-linear')) {
      const { an, bn } = ref.outputs;
      expectClose(posterior.cov, ref.outputs.V.map((row: number[]) => row.map((v) => (v * bn) / (an - 1))), MATRIX, 'cov');
      expectClose(posterior.extras.E_a, ref.outputs.E_a, MATRIX, 'E_a');
      expect(posterior.extras.iterations).toBe(ref.diagnostics.iterations);
      expectClose(pred.mean, ref.predictions.vb_linear_pred.mu, MATRIX, 'mean');
      expectClose(pred.precision, ref.predictions.vb_linear_pred.lambda, MATRIX, 'precision');
      expect(pred.df.every((v: number) => Math.abs(v - ref.predictions.vb_linear_pred.nu) < 1e-9)).toBe(true);
    } else {
      expectClose(posterior.cov, ref.outputs.V, MATRIX, 'cov');
      if (model === 'vb-logit-online') expect(posterior.extras.iterations).toEqual(ref.diagnostics.iterations_per_observation);
      else expect(posterior.extras.iterations).toBe(ref.diagnostics.iterations);
      expectClose(pred.prob, ref.predictions.vb_logit_pred_incr.p, { abs: 1e-8 }, 'prob');
    }
  });

  it('--options {"predictor":"joint"} gives vb_logit_pred', () => {
    const ref = readReferenceJson('vblinlogit', 'logit_basic.json').vb_logit_fit;
    const predictions = join(work, 'joint.json');
    const run = vbstream('fit', '--model', 'vb-logit', '--input', referencePath('vblinlogit', 'logit_basic_train.csv'), '--out', join(work, 'p.json'),
      '--predict', referencePath('vblinlogit', 'logit_basic_test.csv'), '--predictions', predictions, '--options', '{"predictor":"joint"}');
    expect(run.code).toBe(0);
    expectClose(JSON.parse(readFileSync(predictions, 'utf8')).prob, ref.predictions.vb_logit_pred.p, { abs: 1e-8 }, 'prob');
  });
});

describe('vbstream fit refuses bad input, names file, row and column, and writes nothing', () => {
  const good = 'x1,x2,y\n1,0.5,1\n1,-0.3,0\n1,2.0,1\n';
  const cases: [string, string, RegExp, string?][] = [
    ['non-numeric cell', 'x1,x2,y\n1,0.5,1\n1,abc,0\n', /row 2, column x2, value "abc"/],
    ['ragged row', 'x1,x2,y\n1,0.5,1\n1,0\n', /row has 2 cells but the header has 3.*row 2/],
    ['NaN cell', 'x1,x2,y\n1,NaN,1\n', /value is not finite.*row 1, column x2/],
    ['Infinity cell', 'x1,x2,y\n1,0.5,1\n1,-Infinity,0\n', /value is not finite.*row 2, column x2/],
    ['empty cell', 'x1,x2,y\n1,,1\n', /empty cell.*row 1, column x2/],
    ['label outside the codings', 'x1,x2,y\n1,0.5,1\n1,0.2,2\n', /binary label must be 0\/1 or -1\/1.*row 2, column y, value 2/],
    ['empty file', '', /file is empty/],
    ['header only', 'x1,x2,y\n', /no data rows/],
    ['missing label column', 'x1,x2,label\n1,2,1\n', /no label column "y"/],
  ];
  it.each(cases)('%s', (_, text, message) => {
    const input = join(work, 'bad.csv');
    writeFileSync(input, text);
    const out = join(work, 'never.json');
    const run = vbstream('fit', '--model', 'vb-logit', '--input', input, '--out', out);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(input);
    expect(existsSync(out)).toBe(false);
  });

  it('a test file of another width', () => {
    const train = join(work, 'train.csv');
    const test = join(work, 'test.csv');
    writeFileSync(train, good);
    writeFileSync(test, 'x1,x2,x3\n1,2,3\n');
    const out = join(work, 'never2.json');
    const pred = join(work, 'never2-pred.json');
    const run = vbstream('fit', '--model', 'vb-logit-online', '--input', train, '--out', out, '--predict', test, '--predictions', pred);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/has 3 feature columns but the model was fitted on 2.*test\.csv, field header/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(pred)).toBe(false);
  });

  it('unknown model, unknown option and bad JSON options', () => {
    const train = join(work, 'train.csv');
    writeFileSync(train, good);
    const out = join(work, 'never3.json');
    expect(vbstream('fit', '--model', 'nope', '--input', train, '--out', out).stderr).toMatch(/unknown model "nope"; known: vb-linear/);
    expect(vbstream('fit', '--model', 'vb-logit', '--input', train, '--out', out, '--options', '{"tolerance":1}').stderr).toMatch(/unknown option for vb-logit.*field tolerance/);
    expect(vbstream('fit', '--model', 'vb-logit', '--input', train, '--out', out, '--options', '{bad').stderr).toMatch(/--options is not valid JSON/);
    expect(vbstream('fit', '--model', 'vb-logit', '--input', train, '--out', out, '--options', '{"tol":-1}').stderr).toMatch(/must be a finite positive number \(field tol, value -1\)/);
    expect(existsSync(out)).toBe(false);
  });

  it.each(['vb-linear', 'vb-logit-online'])('%s: a value too large for floating point (1e200) is refused as out of range, naming row, column and value, exit ≠ 0, nothing written (issue 14, item 4; issue 26, item 6)', (model) => {
    const input = join(work, `huge-${model}.csv`);
    writeFileSync(input, 'x1,x2,y\n1,0.5,1\n1,1e200,0\n1,2.0,1\n');
    const out = join(work, `never-huge-${model}.json`);
    const run = vbstream('fit', '--model', model, '--input', input, '--out', out);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/feature is out of range: \|value\| > maxAbsInput \(1e\+12\) \(.*huge-.*\.csv, row 2, column 2, value 1e\+200\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('--label chooses the label column and {0,1} labels fit like {-1,1}', () => {
    const a = join(work, 'a.csv');
    const b = join(work, 'b.csv');
    writeFileSync(a, 'x1,x2,y\n1,0.5,1\n1,-0.3,0\n1,2.0,1\n1,-1,0\n');
    writeFileSync(b, 'x1,x2,target\n1,0.5,1\n1,-0.3,-1\n1,2.0,1\n1,-1,-1\n');
    expect(vbstream('fit', '--model', 'vb-logit', '--input', a, '--out', join(work, 'pa.json')).code).toBe(0);
    expect(vbstream('fit', '--model', 'vb-logit', '--input', b, '--out', join(work, 'pb.json'), '--label', 'target').code).toBe(0);
    expect(readFileSync(join(work, 'pa.json'), 'utf8')).toBe(readFileSync(join(work, 'pb.json'), 'utf8'));
  });
});

describe('vbstream fit reports what it did', () => {
  it('ends with a one-line result; a progress line on stderr, if any, is the one after a second (its timing: run-worker-job.test.ts)', () => {
    const path = join(work, 'gp.csv');
    const rows = Array.from({ length: 400 }, (_, i) => `${(i / 40).toFixed(4)},${Math.sin(i / 40).toFixed(6)}`);
    writeFileSync(path, `x,y\n${rows.join('\n')}\n`);
    const run = vbstream('fit', '--model', 'gp-exact', '--input', path, '--out', join(work, 'gp.json'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = /^fit gp-exact: 400 records × 1 features in ([\d.]+) s → .*gp\.json\n$/.exec(run.stdout);
    expect(result, run.stdout).not.toBeNull();
    // The result's time includes the whole job, so a fit well under a second has no progress line; a longer one has the
    // 1 s line only if the ticker fired before the job answered, which depends on the machine's load.
    if (Number(result?.[1]) < 0.9) expect(run.progress).toEqual([]);
    else if (run.progress.length > 0) expect(run.progress[0]).toBe('fitting gp-exact on 400 records × 1 features … 1 s');
  });
});

describe('vbstream fit --model adf-logit / adf-probit', () => {
  it.each(['adf-logit', 'adf-probit'] as const)('%s: rows in file order give the in-process posterior bit for bit, and predictions', async (model) => {
    const { createModel } = await import('../../src/registry.js');
    const rows = [[0.5, -1.2, 1], [1.5, 0.3, 0], [-0.7, 0.9, 1], [0.2, 2.1, 0], [-1.1, -0.4, 1]];
    const train = join(work, `${model}.csv`);
    writeFileSync(train, `a,b,y\n${rows.map((r) => r.join(',')).join('\n')}\n`);
    const out = join(work, `${model}.json`);
    const pred = join(work, `${model}-pred.json`);
    const run = vbstream('fit', '--model', model, '--input', train, '--out', out, '--predict', train, '--predictions', pred, '--options', '{"prior":{"covariance":4}}');
    expect(run.code).toBe(0);
    const direct = createModel(model, 2, { prior: { covariance: 4 } });
    direct.update({ x: Float64Array.from(rows.flatMap((r) => r.slice(0, 2))), y: Float64Array.from(rows, (r) => r[2]), n: rows.length, d: 2 });
    const posterior = JSON.parse(readFileSync(out, 'utf8')) as { family: string; version: number; mean: number[]; extras: { logdetV: number } };
    expect(posterior.family).toBe(model);
    expect(posterior.version).toBe(4);
    expect(posterior.mean).toEqual(Array.from(direct.posterior.w));
    expect(posterior.extras.logdetV).toBe(direct.posterior.logDetV);
    const { prob } = JSON.parse(readFileSync(pred, 'utf8')) as { prob: number[] };
    expect(prob).toEqual(rows.map((r) => direct.predict(Float64Array.of(r[0], r[1])).mean));
  });

  it('adf-logit learns a near-separable CSV (n = 60, p = 3, prior N(0, 10 I), defaults) that it used to refuse (issue 28, item 1)', () => {
    const data = separableStream(60, 3, 38, 2, 0.05, 'file');
    const train = join(work, 'near-separable.csv');
    writeFileSync(train, `a,b,c,y\n${Array.from(data.y, (y, r) => [...data.x.subarray(r * 3, r * 3 + 3), y].join(',')).join('\n')}\n`);
    const out = join(work, 'near-separable.json');
    const run = vbstream('fit', '--model', 'adf-logit', '--input', train, '--out', out, '--options', '{"prior":{"covariance":10}}');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8')) as { mean: number[]; cov: number[][] };
    expect([...posterior.mean, ...posterior.cov.flat()].every(Number.isFinite)).toBe(true);
  });
});

describe('vbstream fit --model adf-poisson', () => {
  it('counts in file order give the in-process posterior bit for bit, and predicted means and variances', async () => {
    const { createModel } = await import('../../src/registry.js');
    const rows = [[0.5, -1.2, 3], [1.5, 0.3, 0], [-0.7, 0.9, 1], [0.2, 2.1, 7], [-1.1, -0.4, 2]];
    const train = join(work, 'adf-poisson.csv');
    writeFileSync(train, `a,b,y\n${rows.map((r) => r.join(',')).join('\n')}\n`);
    const out = join(work, 'adf-poisson.json');
    const pred = join(work, 'adf-poisson-pred.json');
    const run = vbstream('fit', '--model', 'adf-poisson', '--input', train, '--out', out, '--predict', train, '--predictions', pred);
    expect(run.code, run.stderr).toBe(0);
    const direct = createModel('adf-poisson', 2);
    direct.update({ x: Float64Array.from(rows.flatMap((r) => r.slice(0, 2))), y: Float64Array.from(rows, (r) => r[2]), n: rows.length, d: 2 });
    const posterior = JSON.parse(readFileSync(out, 'utf8')) as { family: string; mean: number[] };
    expect(posterior.family).toBe('adf-poisson');
    expect(posterior.mean).toEqual(Array.from(direct.posterior.w));
    const { mean, variance } = JSON.parse(readFileSync(pred, 'utf8')) as { mean: number[]; variance: number[] };
    expect(mean).toEqual(rows.map((r) => direct.predict(Float64Array.of(r[0], r[1])).mean));
    expect(variance).toEqual(rows.map((r) => direct.predict(Float64Array.of(r[0], r[1])).variance));
  });
});
