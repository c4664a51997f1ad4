import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { BernoulliPredictive } from '../../src/core/predictive/bernoulli-predictive.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFamily } from '../../src/registry.js';
import { normalQuantile } from '../../src/special/normal-quantile.js';
import { sigmoid } from '../../src/special/sigmoid.js';
import type { LoggedPrediction } from '../../serve/logged-prediction.js';
import { MemoryPosteriorSource } from '../../serve/memory-posterior-source.js';
import type { PredictionLog } from '../../serve/prediction-log.js';
import type { ScoringEvent } from '../../serve/scoring-event.js';
import { ScoringService } from '../../serve/scoring-service.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { countData, linearData, logisticData } from '../helpers/synthetic-data.js';

const D = 3;
const FEATURES = ['bias', 'age', 'income'];

function fitted(family: string, data: { x: Float64Array; y: Float64Array; n: number; d: number }, options: object = {}): OnlineModel {
  const model = getFamily(family).create(data.d, options);
  model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
  return model;
}

const post = async (base: string, path: string, body: unknown): Promise<{ status: number; json: any; headers: Headers }> => {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, json: await response.json(), headers: response.headers };
};

/** A prediction log in memory: keeps what it is given; `hold` keeps the next writes pending until released, `failWith` fails them. */
class MemoryLog implements PredictionLog {
  readonly logged: LoggedPrediction[] = [];
  readonly outcomes: { predictionId: string; y: number }[] = [];
  failWith: Error | undefined;
  brokerProblem: string | undefined;
  held: (() => void)[] = [];
  hold = false;

  async log(predictions: readonly LoggedPrediction[]): Promise<void> {
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    if (this.failWith !== undefined) throw this.failWith;
    this.logged.push(...predictions);
  }

  async outcome(predictionId: string, y: number): Promise<void> {
    this.outcomes.push({ predictionId, y });
  }

  async stop(): Promise<void> {}
}

describe('ScoringService over an in-memory posterior source', () => {
  const source = new MemoryPosteriorSource();
  const log = new MemoryLog();
  const events: ScoringEvent[] = [];
  const service = new ScoringService({ source, family: 'adf-logit', features: FEATURES, maxAbsInput: 1000, maxRows: 5, maxBodyBytes: 4096, port: 0, log, instanceId: 'test', metrics: new PipelineMetrics({ defaultMetrics: false }), onEvent: (event) => events.push(event) });
  const model = fitted('adf-logit', logisticData(400, D, 1));
  let base = '';

  beforeAll(async () => {
    base = `http://127.0.0.1:${await service.start()}`;
  });
  afterAll(() => service.stop());

  it('answers 503 (retriable, Retry-After) and is not ready before a posterior; then predicts and is ready', async () => {
    const before = await post(base, '/predict', { x: [1, 0.5, -1] });
    expect(before.status).toBe(503);
    expect(before.headers.get('retry-after')).toBe('1');
    expect(before.json.error).toMatchObject({ kind: 'io', retriable: true, message: expect.stringMatching(/no posterior loaded yet/) });
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ status: 'not-ready', pending: ['posterior-loaded'] });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    expect(source.publish(model, 'v1')).toBe(true);
    const answer = await post(base, '/predict', { x: [1, 0.5, -1] });
    expect(answer.status).toBe(200);
    const expected = model.predict(Float64Array.from([1, 0.5, -1]));
    expect(answer.json).toEqual({ mean: expected.mean, variance: expected.variance, interval: expected.interval(0.9), level: 0.9, version: 'v1', predictionId: expect.stringMatching(/^test-\d+$/) });
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ status: 'ready', version: 'v1' });
    expect(events.at(-1)).toMatchObject({ type: 'posterior', version: 'v1', family: 'adf-logit', dim: D, records: 400 });
  });

  it('refuses every kind of bad body with 400 and a typed error naming the field, 413 over the body limit, and keeps serving', async () => {
    const bad: [body: unknown, kind: string, field: string, message: RegExp][] = [
      [{ x: [1, 2] }, 'shape', 'x', /x has 2 values, the model has 3 features/],
      [{ x: [1, 'a', 0] }, 'input', 'x[1]', /must be a number/],
      [{ x: [1, null, 0] }, 'input', 'x[1]', /must be a number/],
      ['{"x": [1, 1e400, 0]}', 'input', 'x[1]', /not finite/],
      [{ x: [1, 0, 5000] }, 'input', 'x[2]', /out of range.*maxAbsInput \(1000\)/],
      [{ x: 'nope' }, 'input', 'x', /array/],
      [{ features: { bias: 1, age: 2, incme: 3 } }, 'input', 'features.incme', /unknown feature "incme"; did you mean "income"/],
      [{ features: { bias: 1, age: 2 } }, 'input', 'features.income', /feature "income" is missing/],
      [{ features: { bias: 1, age: 2, income: true } }, 'input', 'features.income', /must be a number/],
      [{ features: [1, 2, 3] }, 'input', 'features', /object of named features/],
      [{ rows: [] }, 'input', 'rows', /non-empty/],
      [{ rows: Array.from({ length: 6 }, () => [1, 0, 0]) }, 'input', 'rows', /at most 5 rows/],
      [{ rows: [[1, 2, 3], [1, 2]] }, 'shape', 'rows[1]', /rows\[1\] has 2 values/],
      [{ rows: [[1, 2, 3], { features: { bias: 1, age: 2, wealth: 3 } }] }, 'input', 'rows[1].features.wealth', /unknown feature/],
      [{ rows: [{ x: [1, 2, 3], features: {} }] }, 'input', 'rows[0]', /exactly one of "x" and "features"/],
      [{ rows: [5] }, 'input', 'rows[0]', /a row must be/],
      [{ x: [1, 2, 3], level: 1.5 }, 'input', 'level', /between 0 and 1/],
      [{ x: [1, 2, 3], level: 'high' }, 'input', 'level', /between 0 and 1/],
      [{}, 'input', 'body', /exactly one of "x"/],
      [{ x: [1, 2, 3], rows: [[1, 2, 3]] }, 'input', 'body', /exactly one of "x"/],
      [[1, 2, 3], 'input', 'body', /JSON object/],
      ['{"x": [1, 2,', 'input', 'body', /not valid JSON/],
      [{ x: [1, 2, 3], levl: 0.5 }, 'input', 'levl', /unknown field "levl"; did you mean "level"\? a body takes: x, features, rows, level/],
      [{ rows: [{ x: [1, 2, 3], level: 0.5 }] }, 'input', 'rows[0].level', /unknown field "level"; a row takes: x, features/],
    ];
    for (const [body, kind, field, message] of bad) {
      const reply = await post(base, '/predict', body);
      const what = JSON.stringify(body).slice(0, 60);
      expect(reply.status, what).toBe(400);
      expect(reply.json.error, what).toMatchObject({ kind, retriable: false, location: { field } });
      expect(reply.json.error.message, what).toMatch(message);
    }
    const huge = await post(base, '/predict', { x: new Array(3000).fill(1) });
    expect(huge.status).toBe(413);
    expect((await post(base, '/predict', { x: [1, 0, 0] })).status).toBe(200);
  });

  it('takes named features in any order, batches of either form, and a level per request', async () => {
    const byName = await post(base, '/predict', { features: { income: -1, bias: 1, age: 0.5 } });
    const byPosition = await post(base, '/predict', { x: [1, 0.5, -1] });
    expect({ ...byName.json, predictionId: '' }).toEqual({ ...byPosition.json, predictionId: '' });
    const batch = await post(base, '/predict', { rows: [[1, 0.5, -1], { x: [1, 2, 0] }, { features: { bias: 1, age: -2, income: 1 } }], level: 0.5 });
    expect(batch.status).toBe(200);
    expect(batch.json.predictions).toHaveLength(3);
    const rows = [[1, 0.5, -1], [1, 2, 0], [1, -2, 1]];
    batch.json.predictions.forEach((p: any, i: number) => {
      const expected = model.predict(Float64Array.from(rows[i]));
      expect(p).toMatchObject({ mean: expected.mean, variance: expected.variance, interval: expected.interval(0.5), level: 0.5, version: 'v1' });
    });
    const ids = batch.json.predictions.map((p: any) => Number(p.predictionId.split('-')[1]));
    expect(ids).toEqual([ids[0], ids[0] + 1, ids[0] + 2]);
  });

  it('logs every prediction (features as the model saw them) before answering it; a failed log answers 503 and not ready', async () => {
    log.logged.length = 0;
    log.hold = true;
    let answered = false;
    const pending = post(base, '/predict', { features: { income: 3, bias: 1, age: 2 } }).then((reply) => { answered = true; return reply; });
    while (log.held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    log.hold = false;
    for (const release of log.held.splice(0)) release();
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(log.logged).toEqual([{
      predictionId: reply.json.predictionId, x: [1, 2, 3], version: 'v1', mean: reply.json.mean, variance: reply.json.variance, interval: reply.json.interval,
      level: 0.9, predictedAt: expect.any(Number), instance: 'test', family: 'adf-logit', dim: D,
    }]);

    log.failWith = new VbstreamError('io', 'the prediction could not be written to predictions: broker down', { source: 'predictions' }, true);
    log.brokerProblem = 'writing to predictions failed: broker down';
    const refused = await post(base, '/predict', { x: [1, 0, 0] });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json.error.message).toMatch(/broker down/);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect((await ready.json()).pending).toEqual(['predictions-logged (writing to predictions failed: broker down)']);
    log.failWith = undefined;
    log.brokerProblem = undefined;
    expect((await post(base, '/predict', { x: [1, 0, 0] })).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('writes outcomes in the family\'s label coding and refuses others naming the field', async () => {
    const ok = await post(base, '/outcome', { predictionId: 'test-1', y: 1 });
    expect(ok.status).toBe(202);
    expect(ok.json).toEqual({ predictionId: 'test-1', y: 1 });
    expect(log.outcomes).toEqual([{ predictionId: 'test-1', y: 1 }]);
    for (const [body, field] of [[{ predictionId: 'test-1', y: 2 }, 'y'], [{ predictionId: 'test-1', y: '1' }, 'y'], [{ predictionId: '', y: 1 }, 'predictionId'], [{ y: 0 }, 'predictionId']] as const) {
      const reply = await post(base, '/outcome', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.error.location.field).toBe(field);
    }
    expect(log.outcomes).toHaveLength(1);
  });

  it('hot-swaps posteriors under concurrent load with no failed request; refuses another family or width with one event and keeps the last good one', async () => {
    const versions = new Set<string>();
    const failures: number[] = [];
    let load = true;
    const client = async (): Promise<void> => {
      while (load) {
        const reply = await post(base, '/predict', { rows: [[1, 0.3, -0.2], [1, -1, 1]] });
        if (reply.status !== 200) failures.push(reply.status);
        else {
          const [first, second] = reply.json.predictions;
          expect(first.version).toBe(second.version); // one posterior answers the whole request
          versions.add(first.version);
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    const refusedBefore = events.filter((e) => e.type === 'refused').length;
    let newest = model;
    for (let k = 2; k <= 11; k++) {
      newest = fitted('adf-logit', logisticData(100 * k, D, k));
      await new Promise((resolve) => setTimeout(resolve, 20)); // let requests run between swaps
      expect(source.publish(newest, `v${k}`)).toBe(true);
      if (k === 5) expect(source.publish(fitted('vb-logit-online', logisticData(50, D, 9)), 'other-family')).toBe(false);
      if (k === 8) expect(source.publish(fitted('adf-logit', logisticData(50, D + 1, 9)), 'other-dim')).toBe(false);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    load = false;
    await Promise.all(clients);
    expect(failures).toEqual([]);
    expect([...versions].every((v) => /^v\d+$/.test(v))).toBe(true);
    expect(versions.size).toBeGreaterThan(1);
    const refusals = events.filter((e) => e.type === 'refused').slice(refusedBefore);
    expect(refusals).toEqual([
      { type: 'refused', origin: 'memory other-family', reason: 'snapshot is of family "vb-logit-online", this service serves "adf-logit"', field: 'family' },
      { type: 'refused', origin: 'memory other-dim', reason: 'snapshot has 4 features, this service serves 3', field: 'dim' },
    ]);
    const last = await post(base, '/predict', { x: [1, 0.3, -0.2] });
    expect(last.json).toMatchObject({ version: 'v11', mean: newest.predict(Float64Array.from([1, 0.3, -0.2])).mean });
  });

  it('exports requests, durations, the served version and age, swaps, refusals and predicted probabilities', async () => {
    const samples = parsePrometheusText(await (await fetch(`${base}/metrics`)).text());
    expect(sampleValue(samples, 'vbstream_serve_http_requests_total', { route: '/predict', status: '200' })).toBeGreaterThan(10);
    expect(sampleValue(samples, 'vbstream_serve_http_requests_total', { route: '/predict', status: '400' })).toBeGreaterThanOrEqual(24);
    expect(sampleValue(samples, 'vbstream_serve_http_requests_total', { route: '/predict', status: '413' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_serve_http_request_duration_seconds_count', { route: '/predict' })).toBeGreaterThan(10);
    expect(sampleValue(samples, 'vbstream_serve_posterior_info', { version: 'v11', family: 'adf-logit' })).toBe(1);
    expect(samples.filter((s) => s.name === 'vbstream_serve_posterior_info')).toHaveLength(1);
    expect(sampleValue(samples, 'vbstream_serve_posterior_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'vbstream_serve_swaps_total')).toBe(11);
    expect(sampleValue(samples, 'vbstream_serve_refused_snapshots_total', { reason: 'family' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_serve_refused_snapshots_total', { reason: 'dim' })).toBe(1);
    const answered = sampleValue(samples, 'vbstream_serve_predictions_total');
    expect(sampleValue(samples, 'vbstream_serve_predicted_probability_count')).toBe(answered);
    expect(sampleValue(samples, 'vbstream_ready', { condition: 'posterior-loaded' })).toBe(1);
  });
});

describe('ScoringService intervals per kind of predictive', () => {
  const cases: [family: string, kind: string, model: () => OnlineModel][] = [
    ['adf-logit', 'bernoulli', () => fitted('adf-logit', logisticData(300, D, 2))],
    ['vb-logit-online', 'bernoulli', () => fitted('vb-logit-online', logisticData(300, D, 3))],
    ['vb-linear', 'student-t', () => fitted('vb-linear', linearData(300, D, 4))],
    ['direct', 'gaussian', () => fitted('direct', linearData(300, D, 5))],
    ['adf-poisson', 'poisson', () => fitted('adf-poisson', countData(300, D, 6, Float64Array.from([0.5, 0.3, -0.2])))],
  ];
  it.each(cases)('%s (%s): mean, variance and interval are the predictive\'s own at the level asked', async (family, kind, make) => {
    const model = make();
    const source = new MemoryPosteriorSource();
    source.publish(model, 'v');
    const service = new ScoringService({ source, family, port: 0, metrics: new PipelineMetrics({ defaultMetrics: false }) });
    const base = `http://127.0.0.1:${await service.start()}`;
    try {
      for (const level of [0.5, 0.9, 0.99]) {
        const x = [1, 0.4, -0.7];
        const reply = await post(base, '/predict', { x, level });
        const predictive = model.predict(Float64Array.from(x));
        expect(predictive.kind).toBe(kind);
        expect(reply.json).toMatchObject({ mean: predictive.mean, variance: predictive.variance, interval: predictive.interval(level), level });
        const [lo, hi] = reply.json.interval;
        expect(lo).toBeLessThanOrEqual(hi);
        if (predictive instanceof BernoulliPredictive) {
          // the interval of p from the posterior of the logit, not one built from p(1 − p)
          const half = normalQuantile(0.5 + level / 2) * Math.sqrt(predictive.logitVariance);
          expect(reply.json.interval[0]).toBeCloseTo(sigmoid(predictive.logitMean - half), 14);
          expect(reply.json.interval[1]).toBeCloseTo(sigmoid(predictive.logitMean + half), 14);
          expect(lo).toBeGreaterThan(0);
          expect(hi).toBeLessThan(1);
        }
      }
    } finally {
      await service.stop();
    }
  });
});
