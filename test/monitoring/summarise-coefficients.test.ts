import { describe, expect, it } from 'vitest';
import { ModelMonitor } from '../../monitoring/model-monitor.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { summariseCoefficients } from '../../monitoring/summarise-coefficients.js';
import { applyBatch } from '../../operators/apply-batch.js';
import { makeBatch } from '../../src/core/make-batch.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import type { VbLinearModel } from '../../src/models/vb-linear/family.js';
import { Rng } from '../../src/rng/rng.js';

function fittedVbLinear(): OnlineModel {
  const rng = Rng.fromSeed(3);
  const w = [0.5, -3, 0.1, 2];
  const rows: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 60; i++) {
    const x = [1, rng.normal(), rng.normal(), rng.normal()];
    rows.push(x);
    y.push(x.reduce((s, v, j) => s + v * w[j], 0) + 0.5 * rng.normal());
  }
  const model = getFamily('vb-linear').create(4);
  model.update(makeBatch(rows, y));
  return model;
}

describe('summariseCoefficients', () => {
  it('takes the top k by |posterior mean|, with Monte Carlo standard deviations matching the marginal posterior', () => {
    const model = fittedVbLinear();
    const mean = model.posteriorMean();
    const summary = summariseCoefficients(model, 3, 20_000);
    expect(summary.index).toEqual([1, 3, 0]);
    expect(summary.mean).toEqual([mean[1], mean[3], mean[0]]);
    const covariance = (model as VbLinearModel).posteriorCovariance();
    summary.index.forEach((j, i) => expect(summary.sd![i] / Math.sqrt(covariance[j * 4 + j])).toBeCloseTo(1, 1));
    expect(summariseCoefficients(model, 3)).toEqual(summariseCoefficients(model, 3));
  });

  it('gives means only for a model that cannot sample', () => {
    const model = { posteriorMean: () => Float64Array.of(1, -2), sample: () => { throw new Error('no posterior'); } } as unknown as OnlineModel;
    expect(summariseCoefficients(model)).toEqual({ index: [1, 0], mean: [-2, 1] });
  });

  it('reaches PipelineMetrics.coefficients() through the monitor, with the posterior summary', () => {
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const monitor = new ModelMonitor(metrics.model('vb-linear', '2'));
    const model = fittedVbLinear();
    const batch = makeBatch([[1, 0, 0, 0]], [1]);
    monitor.learned(model, applyBatch(model, batch, Float64Array.of(1), true), batch.y);
    const [entry] = metrics.coefficients();
    expect(entry.model).toBe('vb-linear');
    expect(entry.partition).toBe('2');
    expect(entry.summary.index).toHaveLength(4);
    expect(entry.summary.sd).toHaveLength(4);
  });
});
