import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import { defaultPartition } from '../../connectors/kafka/default-partition.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { PosteriorCombiner } from '../../connectors/kafka/posterior-combiner.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { getFamily } from '../../src/registry.js';
import { KafkaPredictionLog } from '../../serve/kafka-prediction-log.js';
import type { LoggedPrediction } from '../../serve/logged-prediction.js';
import { MemoryPosteriorSource } from '../../serve/memory-posterior-source.js';
import { ScoringService } from '../../serve/scoring-service.js';
import { startLocalKafka } from '../../scripts/local-kafka.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';
import { batchFit, readRecords, ServiceProcess, suiteBroker, syntheticData, testKafkaClient, unique, waitFor } from './helpers.js';

const vbstream = (...args: string[]): string => execFileSync(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), ...args], { encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'vbstream-serve-kafka-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const post = async (url: string, body: unknown): Promise<{ status: number; json: any }> => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
};

type ServeEvent = { readonly type: string; readonly [key: string]: unknown };

describe('vbstream serve on a Kafka snapshot topic written by vbstream run (real broker)', () => {
  const { port } = suiteBroker();

  it('serves one partition\'s model (version <p>:<nextOffset>) and the merged posterior (its published version), refusing a snapshot of another width', async () => {
    const topic = unique('serve-run');
    vbstream('kafka:produce', '--brokers', inject('kafkaBootstrap'), '--topic', topic, '--partitions', '2', '--synthetic', '3000', '--kind', 'linear', '--dim', '3', '--seed', '7');
    const config = join(dir, `${topic}.json`);
    writeFileSync(config, JSON.stringify({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], client: testKafkaClient(), topic, groupId: unique('serve-run-group'), dim: 3, untilCaughtUp: true },
      model: { family: 'vb-linear' }, worker: false, snapshots: { everyRecords: 500 }, metrics: false,
    }));
    vbstream('run', '--config', config);
    const model = `vb-linear@${topic}`;
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const servers: ServiceProcess<ServeEvent>[] = [];
    try {
      const { snapshot, meta } = decodeSnapshot((await store.latest(snapshotKey(model, 0)))!);
      const partition0 = getFamily('vb-linear').restore(snapshot);
      expect(partition0.recordsSeen).toBe(1500);
      const one = new ServiceProcess<ServeEvent>(['--config', config, '--partition', '0', '--port', '0'], 'serve');
      servers.push(one);
      await waitFor(() => one.events.some((e) => e.type === 'posterior'), () => `partition 0's model served (stderr: ${one.stderr})`);
      const url = `${one.events.find((e) => e.type === 'listening')!.url}predict`;
      const x = [1, 0.5, -2];
      const answer = await post(url, { x });
      expect(answer.status).toBe(200);
      const expected = partition0.predict(Float64Array.from(x));
      expect(answer.json).toMatchObject({ version: `0:${meta.nextOffset}`, mean: expected.mean, variance: expected.variance, interval: expected.interval(0.9) });

      const combiner = new PosteriorCombiner(store, { model, family: 'vb-linear', dim: 3, topic });
      const combined = await combiner.combine([0, 1]);
      await combiner.publish(combined);
      const global = new ServiceProcess<ServeEvent>(['--config', config, '--global', '--port', '0'], 'serve');
      servers.push(global);
      await waitFor(() => global.events.some((e) => e.type === 'posterior'), () => `the merged posterior served (stderr: ${global.stderr})`);
      expect(global.events.find((e) => e.type === 'posterior')).toMatchObject({ version: combined.version, records: 3000, family: 'vb-linear', dim: 3 });
      const globalUrl = `${global.events.find((e) => e.type === 'listening')!.url}predict`;
      expect((await post(globalUrl, { x })).json).toMatchObject({ version: combined.version, mean: combined.model.predict(Float64Array.from(x)).mean });

      const wider = batchFit('vb-linear', syntheticData(100, 4, 1));
      await store.save(snapshotKey(model, 'global'), encodeSnapshot(wider.snapshot(), { model, topic, offsets: {}, partitions: [], skipped: [], records: 100, version: 'wider' }));
      await waitFor(() => global.stderr.includes('"type":"refused"'), () => `the wider posterior refused (stderr: ${global.stderr})`);
      expect(JSON.parse(global.stderr.trim())).toMatchObject({ type: 'refused', field: 'dim', reason: 'snapshot has 4 features, this service serves 3' });
      expect((await post(globalUrl, { x })).json.version).toBe(combined.version);
      for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null });
    } finally {
      for (const server of servers) await server.kill();
      await store.close();
    }
  });
});

describe('prediction logging to Kafka (real broker)', () => {
  const { port } = suiteBroker();

  it('logs every answered prediction, keyed by its id on the default partitioner\'s partition, in the contract\'s format; outcomes land on the same partition number', async () => {
    const predictionsTopic = unique('predictions');
    const outcomesTopic = unique('outcomes');
    const log = await KafkaPredictionLog.start(port, { predictionsTopic, outcomesTopic, partitions: 3 });
    const source = new MemoryPosteriorSource();
    const model = batchFit('adf-logit', syntheticData(500, 3, 2, true));
    source.publish(model, '0:500');
    const service = new ScoringService({ source, family: 'adf-logit', features: ['bias', 'a', 'b'], log, port: 0, instanceId: 'k', metrics: new PipelineMetrics({ defaultMetrics: false }) });
    const base = `http://127.0.0.1:${await service.start()}`;
    try {
      const answered: any[] = [];
      const client = async (c: number): Promise<void> => {
        for (let i = 0; i < 20; i++) {
          const body = i % 5 === 0 ? { rows: [[1, c / 10, -i / 10], { features: { a: i / 7, b: 1, bias: 1 } }] } : { x: [1, c / 10, i / 10] };
          const reply = await post(`${base}/predict`, body);
          expect(reply.status).toBe(200);
          answered.push(...(reply.json.predictions ?? [reply.json]));
        }
      };
      await Promise.all(Array.from({ length: 10 }, (_, c) => client(c)));
      expect(answered).toHaveLength(240);
      const records = await readRecords(port, predictionsTopic, answered.length);
      expect(records).toHaveLength(answered.length);
      const byId = new Map(records.map((r) => [r.key, r]));
      for (const p of answered) {
        const record = byId.get(p.predictionId)!;
        expect(record.partition).toBe(defaultPartition(p.predictionId, 3));
        const logged = JSON.parse(record.value!.toString()) as LoggedPrediction;
        expect(Object.keys(logged)).toEqual(['predictionId', 'x', 'version', 'mean', 'variance', 'interval', 'level', 'predictedAt', 'instance', 'family', 'dim']);
        expect(logged).toMatchObject({ predictionId: p.predictionId, version: '0:500', mean: p.mean, variance: p.variance, interval: p.interval, level: 0.9, instance: 'k', family: 'adf-logit', dim: 3 });
        expect(logged.mean).toBe(model.predict(Float64Array.from(logged.x)).mean);
      }
      expect(new Set(answered.map((p) => p.predictionId)).size).toBe(answered.length);

      const some = answered.slice(0, 12);
      for (const [i, p] of some.entries()) expect((await post(`${base}/outcome`, { predictionId: p.predictionId, y: i % 2 })).status).toBe(202);
      const outcomes = await readRecords(port, outcomesTopic, some.length);
      for (const outcome of outcomes) {
        expect(outcome.partition).toBe(byId.get(outcome.key)!.partition);
        const value = JSON.parse(outcome.value!.toString());
        expect(value).toEqual({ predictionId: outcome.key, y: some.findIndex((p) => p.predictionId === outcome.key) % 2 });
      }
    } finally {
      await service.stop();
    }
  });

  it('answers no prediction it could not log: 503 (retriable) and not ready while the broker is down, then serves again', async () => {
    const broker = await startLocalKafka({ timeoutMs: PATIENCE_MS });
    const own = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing', client: testKafkaClient() });
    const predictionsTopic = unique('predictions-outage');
    const log = await KafkaPredictionLog.start(own, { predictionsTopic, unresponsiveAfterMs: 2_000 });
    const source = new MemoryPosteriorSource();
    source.publish(batchFit('adf-logit', syntheticData(200, 3, 4, true)), 'v');
    const service = new ScoringService({ source, log, port: 0, requestTimeoutMs: 4_000, metrics: new PipelineMetrics({ defaultMetrics: false }) });
    const base = `http://127.0.0.1:${await service.start()}`;
    const answered: string[] = [];
    const predict = async (): Promise<number> => {
      const reply = await post(`${base}/predict`, { x: [1, 0.2, 0.3] });
      if (reply.status === 200) answered.push(reply.json.predictionId);
      else {
        expect(reply.status).toBe(503);
        expect(reply.json.error.retriable).toBe(true);
      }
      return reply.status;
    };
    try {
      expect(await predict()).toBe(200);
      await broker.halt();
      const during = await Promise.all(Array.from({ length: 5 }, predict));
      expect(during).toEqual([503, 503, 503, 503, 503]);
      await waitFor(async () => (await fetch(`${base}/readyz`)).status === 503, 'readiness to say the predictions cannot be logged');
      expect((await (await fetch(`${base}/readyz`)).json()).pending[0]).toMatch(/^predictions-logged \(/);
      await broker.resume();
      await waitFor(async () => (await predict()) === 200, 'a prediction answered once the broker is back');
      await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 'ready again');
      const logged = new Set((await readRecords(own, predictionsTopic, answered.length)).map((r) => r.key));
      for (const id of answered) expect(logged.has(id), id).toBe(true);
    } finally {
      await service.stop().catch(() => undefined);
      await broker.stop();
    }
  });
});
