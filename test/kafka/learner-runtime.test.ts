import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { AdminPort, KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../../connectors/kafka/partitioned-learner.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { batchFit, brokerPort, createTopic, produceValues, recordJson, snapshotsAtEnd, syntheticData, unique, waitFor } from './helpers.js';

const D = 4;
const N = 12_000;

describe('partitioned learner on the runtime: workers, backpressure, metrics, readiness (real broker)', () => {
  let port: KafkaPort;
  let admin: AdminPort;
  let topic: string;
  let values: (string | null)[];
  const bad = new Set<number>();
  const data = syntheticData(N, D, 61, true);
  beforeAll(async () => {
    port = brokerPort();
    admin = port.admin();
    await admin.connect();
    topic = unique('runtime');
    await createTopic(admin, topic, 2);
    values = Array.from({ length: N }, (_, i) => {
      if (i % 500 !== 7) return recordJson(data, i);
      bad.add(i);
      return i % 1000 === 7 ? '{"x":' : JSON.stringify({ x: [1, 2], y: 1 });
    });
    await produceValues(port, topic, values, 2);
  });
  afterAll(async () => { await admin.disconnect(); });

  /** Runs a learner over the topic until every partition's snapshot is at the end; returns it (stopped) and its metrics text. */
  async function learnAll(worker: boolean, queueCapacity: number): Promise<{ learner: PartitionedLearner; store: KafkaSnapshotStore; model: string; metrics: PipelineMetrics; readiness: Readiness; pauses: number }> {
    const model = unique('m');
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.${model}.snapshots` });
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const readiness = new Readiness();
    const learner = new PartitionedLearner(port, store, {
      topic, groupId: unique('runtime-group'), model, family: 'vb-logit-online', schema: { dim: D }, snapshotEvery: 2000, chunkSize: 200,
      worker, queueCapacity, evaluate: true, metrics, readiness,
    });
    expect(readiness.pending()).toEqual(['model-restored', 'source-consuming']);
    let fatal: Error | undefined;
    await learner.start((error) => { fatal = error; });
    await waitFor(async () => fatal !== undefined || await snapshotsAtEnd(admin, store, topic, model), 'snapshots at the end');
    expect(fatal).toBeUndefined();
    expect(readiness.ready).toBe(true);
    const pauses = [...learner.partitions().values()].reduce((sum, s) => sum + s.pauses, 0);
    expect(learner.queueDepth).toBe(0);
    await learner.stop();
    expect(readiness.pending()).toEqual(['source-consuming']);
    return { learner, store, model, metrics, readiness, pauses };
  }

  it('in workers, a queue of one chunk pauses each partition at every chunk and resumes it; each model still equals one fed its good records in order, and the metrics say so', async () => {
    const { learner, store, model, metrics, pauses } = await learnAll(true, 200);
    expect(pauses).toBeGreaterThanOrEqual(N / 2 / 200 / 2);
    expect(learner.recordsApplied).toBe(N - bad.size);
    const samples = parsePrometheusText(await metrics.metrics());
    for (const partition of [0, 1]) {
      const good = Array.from({ length: N }, (_, i) => i).filter((i) => i % 2 === partition && !bad.has(i));
      const expected = batchFit('vb-logit-online', data, good);
      const bytes = await store.latest(snapshotKey(model, partition));
      expect(decodeSnapshot(bytes as Uint8Array).snapshot.arrays).toEqual(expected.snapshot().arrays);
      const labels = { model: 'vb-logit-online', partition: String(partition) };
      expect(sampleValue(samples, 'vbstream_records_total', { ...labels, status: 'learned' })).toBe(good.length);
      expect(sampleValue(samples, 'vbstream_update_duration_seconds_count', labels)).toBeGreaterThanOrEqual(N / 2 / 200);
      expect(sampleValue(samples, 'vbstream_kafka_consumer_lag', { topic, partition: String(partition) })).toBe(0);
      expect(sampleValue(samples, 'vbstream_snapshots_total', labels)).toBeGreaterThanOrEqual(3);
      expect(sampleValue(samples, 'vbstream_snapshot_size_bytes', labels)).toBe((bytes as Uint8Array).byteLength);
      expect(sampleValue(samples, 'vbstream_posterior_effective_data_size', labels)).toBeGreaterThan(0);
      expect(sampleValue(samples, 'vbstream_prequential_log_loss', labels)).toBeGreaterThan(0);
    }
    const badJson = [...bad].filter((i) => i % 1000 === 7).length;
    expect(sampleValue(samples, 'vbstream_dead_letters_total', { reason: 'bad-json' })).toBe(badJson);
    expect(sampleValue(samples, 'vbstream_dead_letters_total', { reason: 'wrong-width' })).toBe(bad.size - badJson);
    expect(sampleValue(samples, 'vbstream_records_total', { model: 'vb-logit-online', partition: '1', status: 'rejected', reason: 'bad-json' })).toBe(badJson);
    expect(sampleValue(samples, 'vbstream_worker_queue_depth')).toBe(0);
    expect(sampleValue(samples, 'vbstream_worker_busy_seconds_total')).toBeGreaterThan(0);
    await store.close();
  });

  it('in this thread (worker: false) the snapshots are bit-identical to the worker path, with no pauses under the default queue', async () => {
    const { store, model, metrics, pauses } = await learnAll(false, 20_000);
    expect(pauses).toBe(0);
    for (const partition of [0, 1]) {
      const good = Array.from({ length: N }, (_, i) => i).filter((i) => i % 2 === partition && !bad.has(i));
      const bytes = await store.latest(snapshotKey(model, partition));
      expect(decodeSnapshot(bytes as Uint8Array).snapshot.arrays).toEqual(batchFit('vb-logit-online', data, good).snapshot().arrays);
    }
    const samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_records_total', { model: 'vb-logit-online', partition: '0', status: 'learned' })).toBe(N / 2 - [...bad].filter((i) => i % 2 === 0).length);
    await store.close();
  });
});
