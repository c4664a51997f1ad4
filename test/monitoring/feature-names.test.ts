import { describe, expect, it } from 'vitest';
import { SyntheticSource } from '../../connectors/file/synthetic-source.js';
import { LiveView } from '../../monitoring/live-view.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';

/** One naming rule for features: the schema's names when given, else x<j> for 0-based column j, the same on every source and on the live page. */
describe('feature names', () => {
  it('a synthetic stream names column j x<j>, as a Kafka topic without names does (its constant column 0 is the bias)', () => {
    expect(new SyntheticSource({ kind: 'logistic', dim: 4, seed: 1, records: 1 }).features).toEqual(['bias', 'x1', 'x2', 'x3']);
    expect(new SyntheticSource({ kind: 'gp', dim: 3, seed: 1, records: 1 }).features).toEqual(['x0', 'x1', 'x2']);
  });

  it('the live page names the coefficients of unnamed columns x<j> and carries each one\'s column index', async () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    metrics.model('m').setCoefficients({ index: [2, 0], mean: [2, -1], sd: [0.1, 0.1] });
    const live = new LiveView({ metrics });
    live.setFeatureNames(['bias']);
    const frame = await live.sample();
    expect(frame.models.m.coefficients).toMatchObject({ names: ['x2', 'bias'], index: [2, 0] });
  });
});
