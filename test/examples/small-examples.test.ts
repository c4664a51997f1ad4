import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IntegerCodeScorer } from '../../examples/direct-quantized/integer-code-scorer.js';
import { DEFAULT_DIRECT_QUANTIZED, runDirectQuantized } from '../../examples/direct-quantized/run-direct-quantized.js';
import { renderSvgChart } from '../../examples/shared/svg-chart.js';
import { DEFAULT_SPARSE_GP_DLM, runSparseGpDlm } from '../../examples/sparse-gp-dlm/run-sparse-gp-dlm.js';
import { writeSparseGpOutputs } from '../../examples/sparse-gp-dlm/write-sparse-gp-outputs.js';
import { directFamily } from '../../src/models/direct/family.js';

describe('direct-quantized example', () => {
  const results = runDirectQuantized({ ...DEFAULT_DIRECT_QUANTIZED, records: 1500, samples: 16, testPoints: 50 });

  it('exports 4-bit samples at ⌈b/2⌉ bytes each and scores from the codes exactly as from the decoded weights', () => {
    expect(results.b).toBe(2 * DEFAULT_DIRECT_QUANTIZED.features);
    expect(results.bytesPerSample).toBe(results.b / 2);
    expect(results.codes).toHaveLength(16 * results.bytesPerSample);
    expect(results.maxCodeError).toBeLessThan(1e-9);
  });

  it('the mean of the integer-code scores tracks the exact predictive mean and learns the signal', () => {
    for (const t of results.test) expect(Math.abs(t.codeMean - t.predictiveMean)).toBeLessThan(0.5);
    expect(results.rmseCodes).toBeLessThan(1.5 * results.rmsePredictive + 0.05);
    const spread = Math.sqrt(results.test.reduce((s, t) => s + t.truth ** 2, 0) / results.test.length);
    expect(results.rmsePredictive).toBeLessThan(0.6 * spread);
  });

  it('refuses integer-code scoring on a grid that is not one shared evenly spaced support', () => {
    const uneven = directFamily.create(2, { support: [[-1, 0, 2], [-1, 0, 2]], priorProbs: [[1, 1, 1], [1, 1, 1]] });
    expect(() => new IntegerCodeScorer(uneven.grid)).toThrow(/evenly spaced/);
  });
});

describe('sparse-gp-dlm example', () => {
  let dir = '';
  afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }); });
  const results = runSparseGpDlm({ ...DEFAULT_SPARSE_GP_DLM, records: 2000 });

  it('learns the stream: held-out RMSE near the noise and a 90% band covering about 90%', () => {
    expect(results.heldOutRmse).toBeLessThan(0.3);
    expect(results.coverage).toBeGreaterThan(0.8);
    expect(results.coverage).toBeLessThan(0.98);
    for (const g of results.grid) expect(g.lower).toBeLessThan(g.mean);
  });

  it('writes the predictive plot with its series and the CSV with its columns', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vbstream-sgp-'));
    await writeSparseGpOutputs(dir, results, 0.9);
    const svg = await readFile(join(dir, 'predictive.svg'), 'utf8');
    for (const name of ['predictive mean', 'true f', 'last minibatch', '90% predictive band', 'inducing points (M = 15)']) expect(svg).toContain(`data-series="${name}"`);
    expect(results.inducing).toHaveLength(15);
    const inducing = /<g data-series="inducing points \(M = 15\)"[^>]*>(.*?)<\/g>/.exec(svg)![1];
    expect(inducing.match(/<circle /g)).toHaveLength(results.inducing.filter((z) => Math.abs(z.x) <= 3).length);
    const csv = (await readFile(join(dir, 'predictive.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('x,true_f,mean,lower,upper');
    expect(csv).toHaveLength(results.grid.length + 1);
    expect(csv.slice(1).every((line) => line.split(',').map(Number).every(Number.isFinite))).toBe(true);
  });
});

describe('svg chart writer', () => {
  it('maps data to pixels inside the plot, escapes text and skips non-finite points', () => {
    const svg = renderSvgChart({ title: 'a < b & c', xLabel: 'x', yLabel: 'y', xRange: [0, 10], yRange: [0, 1], width: 720, height: 440, series: [{ name: 's"1', x: [0, 10, 5], y: [0, 1, Number.NaN] }] });
    expect(svg).toContain('a &lt; b &amp; c');
    expect(svg).toContain('data-series="s&quot;1"');
    // plot area: x from 72 to 696, y from 44 (top) to 384 (bottom)
    expect(svg).toMatch(/<polyline points="72\.0,384\.0 696\.0,44\.0"/);
    for (const tick of ['>0<', '>2<', '>10<', '>0.2<', '>1<']) expect(svg).toContain(tick);
  });
});
