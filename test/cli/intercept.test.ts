import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSnapshotEvent } from '../../src/core/decode-snapshot-event.js';
import { restoreSnapshotEvent } from '../../src/restore-snapshot-event.js';
import { runVbstream as vbstream } from '../helpers/run-vbstream.js';

/** The intercept is asked for, not silently lost (issue 29, item 4): `fit --intercept`, `schema.intercept`, names and intervals in fit's output. */
const work = mkdtempSync(join(tmpdir(), 'vbstream-intercept-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** y = 5 + 2x + small noise, x in [0, 10): a large intercept a model without one gets wrong. */
function linearCsv(name: string, n: number): string {
  let state = 7;
  const uniform = (): number => (state = (state * 48271) % 2147483647) / 2147483647;
  const rows = Array.from({ length: n }, () => {
    const x = 10 * uniform();
    return `${x},${5 + 2 * x + 0.1 * (uniform() - 0.5)}`;
  });
  writeFileSync(join(work, name), `x,y\n${rows.join('\n')}\n`);
  return join(work, name);
}

describe('the intercept', () => {
  const train = linearCsv('train.csv', 500);
  const test = linearCsv('test.csv', 20);

  it('fit --intercept learns it as the first weight, named in the posterior; predictions carry 90% intervals', () => {
    const out = join(work, 'posterior.json');
    const predictions = join(work, 'pred.json');
    const fit = vbstream('fit', '--model', 'vb-linear', '--input', train, '--out', out, '--predict', test, '--predictions', predictions, '--intercept');
    expect(fit.stderr).toBe('');
    expect(fit.code).toBe(0);
    const posterior = JSON.parse(readFileSync(out, 'utf8')) as { dim: number; mean: number[]; features: string[] };
    expect(posterior.features).toEqual(['intercept', 'x']);
    expect(posterior.dim).toBe(2);
    expect(posterior.mean[0]).toBeCloseTo(5, 1);
    expect(posterior.mean[1]).toBeCloseTo(2, 1);
    const predicted = JSON.parse(readFileSync(predictions, 'utf8')) as { mean: number[]; interval: { level: number; lower: number[]; upper: number[] } };
    expect(predicted.interval.level).toBe(0.9);
    expect(predicted.interval.lower).toHaveLength(20);
    predicted.mean.forEach((mean, r) => {
      expect(predicted.interval.lower[r]).toBeLessThan(mean);
      expect(predicted.interval.upper[r]).toBeGreaterThan(mean);
    });
  });

  it('fit without --intercept fits the columns as given, named in the posterior', () => {
    const out = join(work, 'plain.json');
    expect(vbstream('fit', '--model', 'vb-linear', '--input', train, '--out', out).code).toBe(0);
    expect((JSON.parse(readFileSync(out, 'utf8')) as { features: string[] }).features).toEqual(['x']);
  });

  it.each(['adf-logit', 'vb-logit', 'vi-gh'])('%s predictions carry intervals of the probability, inside [0, 1]', (model) => {
    const csv = join(work, `binary-${model}.csv`);
    writeFileSync(csv, `a,y\n${Array.from({ length: 200 }, (_, i) => `${(i % 20) / 5 - 2},${i % 3 === 0 ? 1 : 0}`).join('\n')}\n`);
    const predictions = join(work, `pred-${model}.json`);
    const fit = vbstream('fit', '--model', model, '--input', csv, '--out', join(work, `post-${model}.json`), '--predict', csv, '--predictions', predictions, '--intercept');
    expect(fit.stderr).toBe('');
    const predicted = JSON.parse(readFileSync(predictions, 'utf8')) as { prob: number[]; interval: { lower: number[]; upper: number[] } };
    expect(predicted.interval.lower).toHaveLength(200);
    predicted.prob.forEach((p, r) => {
      expect(predicted.interval.lower[r]).toBeGreaterThanOrEqual(0);
      expect(predicted.interval.lower[r]).toBeLessThanOrEqual(p);
      expect(predicted.interval.upper[r]).toBeGreaterThanOrEqual(p);
      expect(predicted.interval.upper[r]).toBeLessThanOrEqual(1);
    });
  });

  it('schema.intercept in a run config: the snapshot\'s model has the intercept first and predicts 5 at x = 0', () => {
    const dir = join(work, 'snaps');
    writeFileSync(join(work, 'pipeline.json'), JSON.stringify({ source: { type: 'csv', path: 'train.csv' }, schema: { intercept: true }, model: { family: 'vb-linear' }, snapshots: { dir: 'snaps' }, metrics: false }));
    const run = vbstream('run', '--config', join(work, 'pipeline.json'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.vbsnap'));
    const bytes = readFileSync(join(dir, file));
    const { model } = restoreSnapshotEvent(bytes, file);
    expect(model.dim).toBe(2);
    expect(model.predict(Float64Array.of(1, 0)).mean).toBeCloseTo(5, 1);
    expect(model.predict(Float64Array.of(1, 1)).mean).toBeCloseTo(7, 1);
    expect(decodeSnapshotEvent(bytes, file).event.recordsSeen).toBe(500);
  });

  it('schema.intercept with a synthetic source (which has its own bias column) is refused with one line', () => {
    writeFileSync(join(work, 'synthetic.json'), JSON.stringify({ source: { type: 'synthetic', dim: 3, records: 10 }, schema: { intercept: true }, model: { family: 'adf-logit' }, metrics: false }));
    const run = vbstream('run', '--config', join(work, 'synthetic.json'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/schema\.intercept: a synthetic stream carries its own constant bias column/);
  });
});
