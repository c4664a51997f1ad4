import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../../../connectors/kafka/partitioned-learner.js';
import { snapshotKey } from '../../../connectors/kafka/snapshot-key.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import type { ModelSnapshot } from '../../../src/core/model-snapshot.js';
import { getFamily } from '../../../src/registry.js';
import { repoRoot } from '../../helpers/reference.js';
import { PATIENCE_MS } from '../../helpers/wait-for.js';
import { batchFit, committedOffsets, produceValues, readRecords, recordJson, snapshotsAtEnd, syntheticData, unique, suiteBroker, waitFor } from '../../kafka/helpers.js';

const D = 3;
const work = mkdtempSync(join(tmpdir(), 'vbstream-faults-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `vbstream run --config <json>` as a child process: exit code and output; SIGKILLed (code null) if it has not ended within the suite's patience. */
function run(config: object): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const path = join(work, `${unique('config')}.json`);
  writeFileSync(path, JSON.stringify(config));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--config', path, '--no-metrics']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), PATIENCE_MS);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/**
 * vb-linear learned every record once, with its weight: its sufficient statistics (XᵀX's upper
 * triangle, which per-record updates keep, Xᵀy, yᵀy, N, the record count) equal the one-batch model's
 * bit for bit, whatever the chunks were; the
 * posterior, refitted on a schedule that depends on the chunks, within 1e-6 of the batch fit's.
 */
function expectBatchStatistics(learned: ModelSnapshot, batch: ModelSnapshot): void {
  const d = learned.dim;
  const upper = (xtx: Float64Array) => Array.from(xtx).filter((_, k) => k % d >= Math.floor(k / d));
  expect(upper(learned.arrays.xtx)).toEqual(upper(batch.arrays.xtx));
  expect(Array.from(learned.arrays.xty)).toEqual(Array.from(batch.arrays.xty));
  expect(Array.from(learned.arrays.scalars.subarray(0, 3))).toEqual(Array.from(batch.arrays.scalars.subarray(0, 3)));
  const [a, b] = [getFamily('vb-linear').restore(learned).posteriorMean(), getFamily('vb-linear').restore(batch).posteriorMean()];
  for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - b[j])).toBeLessThan(1e-6 * Math.max(1, Math.abs(b[j])));
}

describe('fault-proof edges against the real broker (issue 14)', () => {
  const { port, admin } = suiteBroker();

  it('item 5: a 2 MB poison pill and 1.6 MB of letters with one key go to the DLQ (the big one cut, with headers saying so), learning goes on and commits past them', async () => {
    const topic = unique('poison');
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '4194304' }] }], waitForLeaders: true });
    const data = syntheticData(900, D, 3);
    const values: string[] = [];
    const bad = new Map<number, number>();
    for (let i = 0; i < data.n; i++) {
      values.push(recordJson(data, i));
      if (i === 100) { bad.set(values.length, 2_000_000); values.push(JSON.stringify({ x: [1, 2, 3], y: 1, pad: 'p'.repeat(2_000_000) })); }
      if (i >= 400 && i < 408) { bad.set(values.length, 200_000); values.push(JSON.stringify({ x: [1, 2, 3], y: 1, pad: 'q'.repeat(200_000) })); }
    }
    const producer = port.producer();
    await producer.connect();
    for (let i = 0; i < values.length; i += 50) await producer.send({ topic, messages: values.slice(i, i + 50).map((value) => ({ key: bad.has(values.indexOf(value)) ? 'same-key' : null, value })), acks: -1 });
    await producer.disconnect();
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const groupId = unique('poison-group');
    const learner = new PartitionedLearner(port, store, { topic, groupId, model: 'lin', family: 'vb-linear', schema: { dim: D }, snapshotEvery: 200, chunkSize: 100 });
    let fatal: Error | undefined;
    await learner.start((error) => { fatal = error; });
    await waitFor(async () => fatal !== undefined || await snapshotsAtEnd(admin, store, topic, 'lin'), 'snapshots at the end');
    await learner.stop();
    expect(fatal).toBeUndefined();
    const letters = await readRecords(port, `${topic}.dlq`, bad.size);
    expect(letters).toHaveLength(bad.size);
    expect(letters.every((l) => l.headers[DEAD_LETTER_HEADERS.reason] === 'oversize')).toBe(true);
    const pill = letters.find((l) => l.headers[DEAD_LETTER_HEADERS.truncated] !== undefined);
    expect(Number(pill?.headers[DEAD_LETTER_HEADERS.truncated])).toBeGreaterThan(2_000_000);
    expect(pill?.value?.length).toBe(262_144);
    expect(await committedOffsets(admin, groupId, topic)).toEqual([values.length]);
    expectBatchStatistics(decodeSnapshot((await store.latest(snapshotKey('lin', 0)))!).snapshot, batchFit('vb-linear', data).snapshot());
    await store.close();
  });

  it('item 5: a dead-letter producer the broker refuses ends `vbstream run` with one clear error and exit 1, never a hang', async () => {
    const topic = unique('refused');
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }, { topic: `${topic}.dlq`, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '1024' }] }], waitForLeaders: true });
    const data = syntheticData(300, D, 4);
    await produceValues(port, topic, [...Array.from({ length: 300 }, (_, i) => recordJson(data, i)), JSON.stringify({ x: [1, 2], y: 1, note: 'n'.repeat(5000) })], 1);
    const result = await run({ source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: unique('refused-group'), dim: D, maxBytes: 100_000 }, model: { family: 'vb-linear' }, minibatch: { size: 100 } });
    expect(result.code, result.stderr).toBe(1); // a hang would have been killed: code null
    expect(result.stderr).toMatch(/the dead-letter producer failed writing to .*\.dlq/);
  });

  it('item 3: restarting with another dimension stops the service with a SnapshotError naming both sides, before any offset moves', async () => {
    const topic = unique('redim');
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
    const data = syntheticData(500, D, 5);
    await produceValues(port, topic, Array.from({ length: 500 }, (_, i) => recordJson(data, i)), 1);
    const groupId = unique('redim-group');
    const source = { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId, dim: D, untilCaughtUp: true };
    const first = await run({ source, model: { family: 'vb-linear' } });
    expect(first.code).toBe(0);
    const before = await committedOffsets(admin, groupId, topic);
    expect(before).toEqual([500]);
    await produceValues(port, topic, Array.from({ length: 50 }, () => JSON.stringify({ x: [1, 2, 3, 4], y: 1 })), 1);
    const second = await run({ source: { ...source, dim: D + 1 }, model: { family: 'vb-linear' } });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/snapshot has 3 features, the pipeline has 4/);
    expect(await committedOffsets(admin, groupId, topic)).toEqual(before);
  });

  it('item 9: snapshots.everyMs and schema.weight are honoured by a Kafka run', async () => {
    const topic = unique('weights');
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
    const data = syntheticData(400, D, 6);
    const weights = Array.from({ length: 400 }, (_, i) => 0.5 + (i % 4) / 2);
    await produceValues(port, topic, Array.from({ length: 400 }, (_, i) => JSON.stringify({ ...JSON.parse(recordJson(data, i)), w: weights[i] })), 1);
    const result = await run({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: unique('weights-group'), dim: D, untilCaughtUp: true },
      schema: { weight: 'w' }, model: { family: 'vb-linear' }, snapshots: { everyMs: 200 },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/and every 0\.2 s/);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const { snapshot } = decodeSnapshot((await store.latest(snapshotKey(`vb-linear@${topic}`, 0)))!);
    const expected = getFamily('vb-linear').create(D);
    expected.update({ x: data.x, y: data.y, n: 400, d: D, weights: Float64Array.from(weights) });
    expectBatchStatistics(snapshot, expected.snapshot());
    await store.close();
  });
});
