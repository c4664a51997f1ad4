import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BanditHttpService, type DecisionMaker } from '../../bandit/kafka/bandit-http-service.js';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import type { LoggedDecision } from '../../bandit/kafka/logged-decision.js';
import { parseRewardRecord, type RewardRecord } from '../../bandit/kafka/parse-reward-record.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

/** A decider without Kafka: a real policy decides (so its context checks answer), rewards are checked as the real decider checks them and kept. */
class LocalDecider implements DecisionMaker {
  readonly instanceId = 'local';
  readonly policyRewards = 0;
  readonly policyVersion = 7;
  ready = false;
  failNext: Error | undefined;
  readonly rewards: RewardRecord[] = [];
  private readonly policy = new ThompsonPolicy({ arms: 3, dim: 2, seed: 1, propensityDraws: 10 });

  async decide(context: ArrayLike<number>): Promise<LoggedDecision> {
    if (!this.ready) throw new VbstreamError('io', 'no policy loaded yet', {}, true);
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure !== undefined) throw failure;
    const d = this.policy.decide(Float64Array.from(context));
    return { decisionId: d.decisionId, arm: d.arm, propensity: d.propensity, propensityMethod: d.propensityMethod, scores: Array.from(d.scores), context: Array.from(d.context), decidedAt: 0, instance: this.instanceId, policyRewards: 0 };
  }

  async reward(decisionId: unknown, reward: unknown): Promise<void> {
    this.rewards.push(parseRewardRecord({ decisionId, reward }));
  }
}

describe('BanditHttpService: the decide service\'s HTTP edge', () => {
  const decider = new LocalDecider();
  const monitoring = new PipelineMetrics({ defaultMetrics: false });
  const service = new BanditHttpService({ decider, exposition: monitoring, metrics: new BanditMetrics(monitoring.registry, 'decider'), port: 0, maxBodyBytes: 1024 });
  let base = '';
  beforeAll(async () => { base = `http://127.0.0.1:${await service.listen()}`; });
  afterAll(() => service.close());

  const post = async (path: string, body: string): Promise<{ status: number; json: { [key: string]: unknown } }> => {
    const response = await fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return { status: response.status, json: await response.json() as { [key: string]: unknown } };
  };
  const errorOf = (json: { [key: string]: unknown }) => json.error as { kind: string; message: string; location: { field?: string }; retriable: boolean };

  it('answers 503 (retriable) before a policy is loaded, then decides and takes rewards', async () => {
    expect((await fetch(`${base}/health`)).status).toBe(503);
    const early = await post('/decide', '{"context": [1, 0.5]}');
    expect(early.status).toBe(503);
    expect(errorOf(early.json)).toMatchObject({ kind: 'io', retriable: true });
    decider.ready = true;
    const health = await fetch(`${base}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok', instance: 'local', policyRewards: 0, policyVersion: 7 }]);
    const decided = await post('/decide', '{"context": [1, 0.5]}');
    expect(decided.status).toBe(200);
    expect(decided.json).toMatchObject({ decisionId: 't1-1', propensityMethod: 'quadrature', context: [1, 0.5], policyVersion: 7 });
    expect(decided.json.arm).toBeTypeOf('number');
    const rewarded = await post('/reward', '{"decisionId": "t1-1", "reward": true}');
    expect([rewarded.status, rewarded.json]).toEqual([202, { decisionId: 't1-1', reward: 1 }]);
    expect(decider.rewards).toEqual([{ decisionId: 't1-1', reward: 1, expired: false }]);
  });

  it.each([
    ['/decide', 'not json', 'body', /not valid JSON/],
    ['/decide', '[1, 2]', 'body', /must be a JSON object/],
    ['/decide', '{"ctx": [1, 2]}', 'context', /context must be an array of numbers/],
    ['/decide', '{"context": [1, "2"]}', 'context[1]', /context\[1\] must be a number/],
    ['/decide', '{"context": [1, null]}', 'context[1]', /context\[1\] must be a number/],
    ['/decide', '{"context": [1, 2, 3]}', 'context', /context has 3 features but the policy has 2/],
    ['/decide', '{"context": [1, 1e400]}', undefined, /finite/],
    ['/reward', '{"reward": 1}', 'decisionId', /decisionId must be a non-empty string/],
    ['/reward', '{"decisionId": "t1-1", "reward": "yes"}', 'reward', /reward must be a finite number/],
    ['/reward', '{"decisionId": "t1-1"}', 'reward', /reward must be a finite number/],
  ])('%s %s → 400 with a typed error naming %s', async (path, body, field, message) => {
    decider.ready = true;
    const { status, json } = await post(path, body);
    expect(status).toBe(400);
    const error = errorOf(json);
    expect(['input', 'shape']).toContain(error.kind);
    expect(error.retriable).toBe(false);
    expect(error.message).toMatch(message);
    if (field !== undefined) expect(error.location.field).toBe(field);
  });

  it('refuses a body over the limit (413), unknown paths (404) and wrong methods (405); an unexpected failure is a 500, a retriable one a 503, and the service keeps serving', async () => {
    const large = await post('/decide', JSON.stringify({ context: new Array(600).fill(1) }));
    expect(large.status).toBe(413);
    expect(errorOf(large.json).message).toMatch(/exceeds 1024 bytes/);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/decide`, { method: 'POST' }, (response) => { response.resume(); resolve(response.statusCode!); });
      req.on('error', reject);
      for (let i = 0; i < 4; i++) req.write(' '.repeat(400));
      req.end('{"context": [1, 0]}');
    });
    expect(chunked, 'a chunked body (no content-length) over the limit').toBe(413);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const wrong = await fetch(`${base}/decide`);
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
    decider.ready = true;
    decider.failNext = new Error('bug');
    const failed = await post('/decide', '{"context": [1, 0]}');
    expect([failed.status, errorOf(failed.json).kind, errorOf(failed.json).message]).toEqual([500, 'internal', 'bug']);
    decider.failNext = Object.assign(new Error('leader not available'), { retriable: true }); // as kafkajs marks its retriable errors
    const busy = await post('/decide', '{"context": [1, 0]}');
    expect([busy.status, errorOf(busy.json).kind, errorOf(busy.json).retriable]).toEqual([503, 'io', true]);
    expect((await post('/decide', '{"context": [1, 0]}')).status).toBe(200);
  });

  it('serves its metrics, requests counted by route and status', async () => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    const samples = parsePrometheusText(await response.text());
    expect(sampleValue(samples, 'vbstream_bandit_http_requests_total', { route: '/decide', status: '400' })).toBe(7);
    expect(sampleValue(samples, 'vbstream_bandit_http_requests_total', { route: '/reward', status: '202' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_bandit_http_requests_total', { route: 'other', status: '404' })).toBe(1);
  });
});
