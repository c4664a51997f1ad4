import { PassThrough } from 'node:stream';
import { describe, expect, inject, it } from 'vitest';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';
import { runPipeline } from '../../cli/run-pipeline.js';
import type { PipelineResult } from '../../cli/pipeline-result.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import type { LearnerEvent } from '../../connectors/kafka/learner-event.js';
import { PartitionedLearner } from '../../connectors/kafka/partitioned-learner.js';
import { RecordDecoder } from '../../connectors/kafka/record-decoder.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { committedOffsets, createTopic, produceValues, recordJson, suiteBroker, syntheticData, testKafkaClient, unique, waitFor } from './helpers.js';

/** Runs `vbstream run`'s pipeline in this process; resolves what it returned (or rejected with) and what it printed. */
async function run(source: object, model: object, extra: object = {}): Promise<{ result?: PipelineResult; error?: unknown; out: string; err: string }> {
  const config = parsePipelineConfig({ source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], client: testKafkaClient(), untilCaughtUp: true, ...source }, model, metrics: false, progress: { everyMs: 200 }, ...extra }, 'test');
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk: Buffer) => { outText += chunk.toString('utf8'); });
  err.on('data', (chunk: Buffer) => { errText += chunk.toString('utf8'); });
  try {
    const result = await runPipeline(config, { out, err, resume: false, onSource: () => undefined });
    return { result, out: outText, err: errText };
  } catch (error) {
    return { error, out: outText, err: errText };
  }
}

describe('the Kafka learner refuses what would silently reset a model (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('another family on the same group is refused with a SnapshotError naming both sides before any offset moves (issue 26, item 1); missingSnapshot "from-earliest" learns it from the start', async () => {
    const topic = unique('family');
    const groupId = unique('family-group');
    const data = syntheticData(2_000, 3, 11, true);
    await createTopic(admin, topic, 2);
    await produceValues(port, topic, Array.from({ length: data.n }, (_, i) => recordJson(data, i)), 2);
    const first = await run({ topic, groupId, dim: 3 }, { family: 'vb-logit-online' });
    expect(first.error).toBeUndefined();
    expect(first.result?.recordsSeen).toBe(2_000);
    const committed = await committedOffsets(admin, groupId, topic);
    expect(committed).toEqual([1_000, 1_000]);

    const other = await run({ topic, groupId, dim: 3 }, { family: 'adf-logit' });
    expect(other.error).toBeInstanceOf(SnapshotError);
    const message = (other.error as Error).message;
    expect(message).toContain(`group ${groupId} has committed offset 1,000`);
    expect(message).toMatch(new RegExp(`no snapshot adf-logit@${topic}/[01] of the configured model \\(adf-logit, d=3\\)`));
    expect(message).toMatch(new RegExp(`vb-logit-online@${topic}/[01] \\(vb-logit-online, d=3, next offset 1,000\\)`));
    expect(message).toContain("missingSnapshot to 'from-earliest'");
    expect(await committedOffsets(admin, groupId, topic)).toEqual(committed);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    try {
      expect((await store.keys()).filter((key) => key.startsWith('adf-logit@'))).toEqual([]);
      expect((await admin.fetchTopicOffsets(`${topic}.dlq`)).map((p) => Number(p.high))).toEqual([0, 0]);

      const over = await run({ topic, groupId, dim: 3, missingSnapshot: 'from-earliest' }, { family: 'adf-logit' });
      expect(over.error).toBeUndefined();
      expect(over.result?.recordsSeen).toBe(2_000);
      expect(over.err).toContain('has no snapshot of this model (the group had committed offset 1,000); learning it from offset 0');
      for (const p of [0, 1]) {
        const { meta } = decodeSnapshot((await store.latest(snapshotKey(`adf-logit@${topic}`, p))) as Uint8Array);
        expect([meta.nextOffset, meta.records]).toEqual([1_000, 1_000]);
      }
    } finally {
      await store.close();
    }
  });

  it('another dim where a partition has no snapshot yet: every partition is checked before consuming, nothing is written for any, the run fails at once; the right dim then finishes (issue 26, item 2)', async () => {
    const topic = unique('dims');
    const groupId = unique('dims-group');
    const data = syntheticData(1_000, 3, 12, true);
    await createTopic(admin, topic, 2);
    const values = Array.from({ length: data.n }, (_, i) => recordJson(data, i));
    const producer = port.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: values.slice(0, 500).map((value) => ({ value, partition: 0 })) });
    const first = await run({ topic, groupId, dim: 3 }, { family: 'vb-logit-online' });
    expect(first.result?.recordsSeen).toBe(500);
    await producer.send({ topic, acks: -1, messages: values.slice(500).map((value) => ({ value, partition: 1 })) });
    await producer.disconnect();

    const wrong = await run({ topic, groupId, dim: 4 }, { family: 'vb-logit-online' });
    expect(wrong.error).toBeInstanceOf(SnapshotError);
    expect((wrong.error as Error).message).toContain('snapshot has 3 features, the pipeline has 4');
    expect(await committedOffsets(admin, groupId, topic)).toEqual([500, -1]);
    expect((await admin.fetchTopicOffsets(`${topic}.dlq`)).map((p) => Number(p.high))).toEqual([0, 0]);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    try {
      expect(await store.latest(snapshotKey(`vb-logit-online@${topic}`, 1))).toBeUndefined();
      const right = await run({ topic, groupId, dim: 3 }, { family: 'vb-logit-online' });
      expect(right.error).toBeUndefined();
      expect(right.result?.recordsSeen).toBe(500); // partition 0 restored at its end; partition 1 learned whole
      expect(await committedOffsets(admin, groupId, topic)).toEqual([500, 500]);
      const { meta } = decodeSnapshot((await store.latest(snapshotKey(`vb-logit-online@${topic}`, 1))) as Uint8Array);
      expect([meta.nextOffset, meta.records]).toEqual([500, 500]);
    } finally {
      await store.close();
    }
  });

  it('a live stream that catches up at every fetch snapshots at most once per snapshotEveryMs, and not at all once nothing changes (issue 26, item 3)', async () => {
    const topic = unique('live');
    const data = syntheticData(4_000, 3, 13, true);
    await createTopic(admin, topic, 1);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const durable: number[] = [];
    const everyMs = 1_500;
    const learner = new PartitionedLearner(port, store, {
      topic, groupId: unique('live-group'), model: 'live', family: 'vb-logit-online', schema: { dim: 3 }, worker: false, snapshotEveryMs: everyMs,
      onEvent: (event) => { if (event.type === 'snapshot-durable') durable.push(Date.now()); },
    });
    const producer = port.producer();
    await producer.connect();
    try {
      await learner.start((error) => { throw error; });
      const started = Date.now();
      let sent = 0;
      while (Date.now() - started < 6_000) { // a trickle: a few records every 50 ms, each fetch catching up
        const messages = Array.from({ length: 10 }, (_, k) => ({ value: recordJson(data, (sent + k) % data.n) }));
        await producer.send({ topic, acks: 1, messages });
        sent += messages.length;
        await new Promise((resolve) => setTimeout(resolve, 50)); // the pace of the trickle, not a wait for something
      }
      const trickle = Date.now() - started;
      await waitFor(async () => (await store.latest(snapshotKey('live', 0))) !== undefined && decodeSnapshot((await store.latest(snapshotKey('live', 0))) as Uint8Array).meta.nextOffset === sent, 'the trailing snapshot of the last records');
      const settled = durable.length;
      expect(settled, `snapshots over ${trickle} ms of a trickle of ${sent} records`).toBeLessThanOrEqual(Math.ceil(trickle / everyMs) + 2);
      await new Promise((resolve) => setTimeout(resolve, 2 * everyMs)); // a period in which nothing may happen: nothing new, no snapshot
      expect(durable.length).toBe(settled);
    } finally {
      await producer.disconnect();
      await learner.stop();
      await store.close();
    }
  });

  it('the lag metric is end − next offset to learn for every assigned partition, series for partitions not yet fetched, refreshed while nothing is learned (issue 26, item 5)', async () => {
    const topic = unique('lag');
    const data = syntheticData(600, 3, 14, true);
    await createTopic(admin, topic, 3);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const metrics = new PipelineMetrics({ pipeline: 'lag' });
    const lagOf = async (): Promise<number[]> => {
      const gauge = (await metrics.registry.getSingleMetric('vbstream_kafka_consumer_lag')?.get())?.values ?? [];
      return [0, 1, 2].map((p) => gauge.find((v) => v.labels.partition === String(p))?.value ?? Number.NaN);
    };
    // Decoding waits on a gate the test opens: records can be fetched and not learned.
    let open: () => void = () => undefined;
    let gate = new Promise<void>((resolve) => { open = resolve; });
    const learner = new PartitionedLearner(port, store, {
      topic, groupId: unique('lag-group'), model: 'lag', family: 'vb-logit-online', schema: { dim: 3 }, worker: false, metrics, watchMs: 200,
      decoder: (schema) => Object.assign(new RecordDecoder(schema), { prepare: () => gate }),
    });
    try {
      await learner.start((error) => { throw error; });
      await waitFor(async () => (await lagOf()).every((lag) => lag === 0), 'a lag series of 0 for each of the 3 assigned partitions, none fetched yet');
      await produceValues(port, topic, Array.from({ length: data.n }, (_, i) => recordJson(data, i)), 2); // partitions 0 and 1 only
      const ends = (await admin.fetchTopicOffsets(topic)).map((p) => Number(p.high));
      expect(ends).toEqual([300, 300, 0]);
      await waitFor(async () => (await lagOf()).join() === ends.join(), `the lag equal to the end offsets read independently (${ends.join(', ')}) while nothing is learned`);
      open();
      gate = Promise.resolve();
      await waitFor(async () => (await lagOf()).every((lag) => lag === 0), 'the lag at 0 once every record is learned');
      expect([...learner.partitions().values()].map((status) => status.lag)).toEqual([0, 0, 0]);
    } finally {
      open();
      await learner.stop();
      await store.close();
    }
  });

  it('every record dead-lettered: one line with the reason and an example, /readyz says why, the done line counts by reason (issue 26, item 8)', async () => {
    const topic = unique('alarm');
    const data = syntheticData(3_000, 3, 15, true);
    await createTopic(admin, topic, 1);
    await produceValues(port, topic, Array.from({ length: data.n }, (_, i) => recordJson(data, i)), 1); // {"x": [...], "y": ...}
    const readiness = new Readiness();
    const events: LearnerEvent[] = [];
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const learner = new PartitionedLearner(port, store, {
      topic, groupId: unique('alarm-group'), model: 'alarm', family: 'vb-logit-online', schema: { dim: 3, features: ['age', 'visits', 'price'], label: 'clicked' }, readiness,
      onEvent: (event) => events.push(event),
    });
    try {
      await learner.start((error) => { throw error; });
      await waitFor(() => events.some((e) => e.type === 'dead-letters-alarm'), 'the dead-letter alarm');
      const alarms = events.filter((e): e is Extract<LearnerEvent, { readonly share: number }> => e.type === 'dead-letters-alarm');
      expect(alarms).toHaveLength(1);
      const [alarm] = alarms;
      expect(alarm.share).toBe(1);
      expect(alarm.detail).toMatch(/^partition 0: 1,000 of 1,000 records dead-lettered \(100%\) — bad-shape 1,000; e\.g\. offset 0: bad-shape: .*age/);
      expect(readiness.ready).toBe(false);
      expect(readiness.explain()).toEqual([`dead-letters (${alarm.detail})`]);
      await waitFor(() => learner.deadLettersByReason()?.['bad-shape'] === 3_000, 'every record dead-lettered');
    } finally {
      await learner.stop();
      await store.close();
    }
    const cli = await run({ topic, groupId: unique('alarm-cli'), dim: 3 }, { family: 'vb-logit-online' }, { schema: { features: ['age', 'visits', 'price'], label: 'clicked' } });
    expect(cli.err).toMatch(new RegExp(`^dead letters: ${topic} partition 0: ([\\d,]+) of \\1 records dead-lettered \\(100%\\) — bad-shape \\1; e\\.g\\. offset 0: bad-shape: feature field age is missing; not ready until`, 'm'));
    expect(cli.err.match(/^dead letters:/gm)).toHaveLength(1);
    expect(cli.out).toContain('0 records learned');
    expect(cli.out).toContain('3,000 dead letters (bad-shape 3,000)');
  });
});
