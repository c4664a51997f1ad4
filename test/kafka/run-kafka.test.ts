import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';
import { runPipeline } from '../../cli/run-pipeline.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { getFamily } from '../../src/registry.js';
import { repoRoot } from '../helpers/reference.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { snapshotsAtEnd, unique, suiteBroker, waitFor } from './helpers.js';

const N = 6000;
const D = 4;
const vbstream = (...args: string[]): string => execFileSync(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), ...args], { encoding: 'utf8' });

describe('vbstream kafka:produce and vbstream run with a Kafka source (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('produces a seeded stream round-robin, learns it per partition with /metrics and /readyz served, and snapshots to the compacted topic', async () => {
    const topic = unique('run');
    expect(vbstream('kafka:produce', '--brokers', inject('kafkaBootstrap'), '--topic', topic, '--partitions', '2', '--synthetic', String(N), '--dim', String(D), '--seed', '5')).toContain(`produced 6,000 records to ${topic} (2 partitions)`);
    const config = parsePipelineConfig({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: unique('run-group'), dim: D },
      model: { family: 'vb-logit-online' },
      minibatch: { size: 250 },
      snapshots: { everyRecords: 1000 },
      metrics: { port: 0 },
    }, 'test');
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
    let stop: () => void = () => undefined;
    const run = runPipeline(config, { out, err: process.stderr, resume: false, onSource: (s) => { stop = s; } });
    await waitFor(() => /metrics: (\S+)/.test(text), 'the metrics URL');
    const url = /metrics: (\S+)/.exec(text)![1];
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const model = `vb-logit-online@${topic}`;
    await waitFor(() => snapshotsAtEnd(admin, store, topic, model), 'snapshots at the end');
    expect((await fetch(url.replace('/metrics', '/readyz'))).status).toBe(200);
    const samples = parsePrometheusText(await (await fetch(url)).text());
    stop();
    const result = await run;
    expect(result.recordsSeen).toBe(N);
    expect(result.badRecords).toBe(0);
    expect(text).toContain('done: 6,000 records learned');

    const generator = new SyntheticGenerator({ kind: 'logistic', dim: D, seed: 5 });
    const x = new Float64Array(N * D);
    const y = new Float64Array(N);
    for (let i = 0; i < N; i++) y[i] = generator.next(x.subarray(i * D, (i + 1) * D));
    for (const partition of [0, 1]) {
      const rows = Array.from({ length: N / 2 }, (_, k) => 2 * k + partition);
      const expected = getFamily('vb-logit-online').create(D);
      expected.update({ x: Float64Array.from(rows.flatMap((r) => Array.from(x.subarray(r * D, (r + 1) * D)))), y: Float64Array.from(rows, (r) => y[r]), n: rows.length, d: D });
      const bytes = await store.latest(snapshotKey(model, partition));
      expect(decodeSnapshot(bytes as Uint8Array).snapshot.arrays).toEqual(expected.snapshot().arrays);
      expect(sampleValue(samples, 'vbstream_records_total', { model: 'vb-logit-online', partition: String(partition), status: 'learned' })).toBe(N / 2);
      expect(sampleValue(samples, 'vbstream_kafka_consumer_lag', { topic, partition: String(partition) })).toBe(0);
    }
    await store.close();
  });
});
