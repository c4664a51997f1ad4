import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson, referencePath } from '../helpers/reference.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-viper-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const fixture = readReferenceJson('viper', 'logreg_n200_p3.json');
const input = referencePath('viper', 'logreg_n200_p3.csv');
const OPTIONS = '{"prior":{"mean":0,"covariance":1},"l":12,"seed":1}';

const vbstream = runVbstream;

describe('vbstream fit --model vi-per | vi-per-mf | vi-gh | vi-mc on logreg_n200_p3', () => {
  it.each([['vi-per', 'viper_full_l12'], ['vi-per-mf', 'viper_mf_l12'], ['vi-gh', 'exact_full'], ['vi-mc', 'exact_full']] as const)('%s reproduces %s', (model, name) => {
    const out = join(work, `${model}.json`);
    const predictions = join(work, `${model}-pred.json`);
    const run = vbstream('fit', '--model', model, '--input', input, '--out', out, '--predict', input, '--predictions', predictions, '--options', OPTIONS);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8'));
    const reference = fixture.methods[name];
    expect(posterior.family).toBe(model);
    expect(posterior.extras.l).toBe(12);
    expect(posterior.extras.iterations).toBeGreaterThan(0);
    const tolerance = model === 'vi-mc' ? { abs: 0.05 } : { abs: 1e-6 };
    expectClose(posterior.mean, reference.mu, tolerance, 'mean');
    expectClose(posterior.cov, reference.Sigma, model === 'vi-mc' ? { abs: 0.01 } : tolerance, 'cov');
    if (model !== 'vi-mc') expect(Math.abs(posterior.extras.objective - reference.objective_value)).toBeLessThanOrEqual(1e-8);
    if (model === 'vi-per-mf') expect(posterior.cov[0][1]).toBe(0);
    const prob = JSON.parse(readFileSync(predictions, 'utf8')).prob;
    expect(prob).toHaveLength(200);
    expect(prob.every((p: number) => p > 0 && p < 1)).toBe(true);
  });

  it('refuses an unknown option and a bad l, writing nothing', () => {
    const out = join(work, 'refused.json');
    for (const options of ['{"nope":1}', '{"l":1.5}']) {
      const run = vbstream('fit', '--model', 'vi-per', '--input', input, '--out', out, '--options', options);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/nope|field l/);
      expect(existsSync(out)).toBe(false);
    }
  });
});
