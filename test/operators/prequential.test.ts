import { from, lastValueFrom, last, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { learn } from '../../operators/learn.js';
import { minibatch } from '../../operators/minibatch.js';
import { prequential } from '../../operators/prequential.js';
import { ConfigError } from '../../src/core/config-error.js';
import { getFamily } from '../../src/registry.js';

function stream(kind: 'logistic' | 'linear', n: number, dim: number, seed: number): LabelledRecord[] {
  const generator = new SyntheticGenerator({ kind, dim, seed });
  return Array.from({ length: n }, (_, i) => { const x = new Float64Array(dim); return { x, y: generator.next(x), row: i + 1 }; });
}

describe('prequential()', () => {
  it('scores each record before learning it: the running log-loss equals a hand-rolled test-then-train loop', async () => {
    const records = stream('logistic', 300, 3, 4);
    const report = await lastValueFrom(from(records).pipe(learn(getFamily('vb-logit-online').create(3), { evaluate: true }), prequential(), last()));
    const model = getFamily('vb-logit-online').create(3);
    let loss = 0;
    let brier = 0;
    for (const r of records) {
      const p = model.predict(r.x);
      loss -= p.logProb(r.y);
      brier += (p.mean - r.y) ** 2;
      model.update({ x: r.x, y: Float64Array.of(r.y), n: 1, d: 3 });
    }
    expect(report.records).toBe(300);
    expect(report.logLoss).toBeCloseTo(loss / 300, 12);
    expect(report.brier).toBeCloseTo(brier / 300, 12);
    expect(report.squaredError).toBeNaN();
    expect(report.calibration).toHaveLength(10);
    expect(report.calibration.reduce((s, b) => s + b.count, 0)).toBe(300);
    for (const bin of report.calibration.filter((b) => b.count > 0)) expect(bin.meanPredicted).toBeGreaterThanOrEqual(bin.lower);
  });

  it('with minibatches, a batch is scored by the model before that batch (the log-loss falls as it learns)', async () => {
    const records = stream('logistic', 4000, 4, 8);
    const reports = await lastValueFrom(from(records).pipe(minibatch(200), learn(getFamily('vb-logit').create(4), { evaluate: true }), prequential({ bins: 5 }), toArray()));
    expect(reports[0].logLoss).toBeCloseTo(Math.log(2), 4);
    expect(reports[0].records).toBe(200);
    expect(reports.at(-1)!.logLoss).toBeLessThan(0.6);
    expect(reports.at(-1)!.calibration).toHaveLength(5);
  });

  it('regression streams get the squared error and no calibration histogram', async () => {
    const report = await lastValueFrom(from(stream('linear', 500, 3, 2)).pipe(minibatch(50), learn(getFamily('vb-linear').create(3), { evaluate: true }), prequential(), last()));
    expect(report.brier).toBeNaN();
    expect(report.squaredError).toBeGreaterThan(0.2);
    expect(report.squaredError).toBeLessThan(1);
    expect(report.calibration).toEqual([]);
  });

  it('errors with a ConfigError when learn did not evaluate; passes errors and completion through', () => {
    new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ cold, expectObservable }) => {
      const model = getFamily('vb-linear').create(1);
      const r = { x: Float64Array.of(1), y: 1, row: 1 };
      expectObservable(cold('a|', { a: r }).pipe(learn(model), prequential())).toBe('#', undefined, new ConfigError('prequential() needs the scores of learn(model, { evaluate: true })', { field: 'evaluate' }));
      expectObservable(cold<LabelledRecord>('-#').pipe(learn(getFamily('vb-linear').create(1), { evaluate: true }), prequential())).toBe('-#');
      expectObservable(cold<LabelledRecord>('-|').pipe(learn(getFamily('vb-linear').create(1), { evaluate: true }), prequential())).toBe('-|');
    });
  });
});
