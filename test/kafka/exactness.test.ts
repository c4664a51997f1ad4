import { describe, expect, it } from 'vitest';
import type { VbLinearModel } from '../../src/models/vb-linear/family.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../../connectors/kafka/partitioned-learner.js';
import { PosteriorCombiner } from '../../connectors/kafka/posterior-combiner.js';
import { readGlobalPosterior } from '../../connectors/kafka/read-global-posterior.js';
import { ScoringSink } from '../../connectors/kafka/scoring-sink.js';
import { expectClose } from '../helpers/close.js';
import { batchFit, createTopic, produceValues, readRecords, recordJson, snapshotsAtEnd, syntheticData, unique, suiteBroker, waitFor } from './helpers.js';

const TIGHT = { rel: 1e-10, absOfMax: 1e-14 };

function expectSamePosterior(actual: VbLinearModel, expected: VbLinearModel): void {
  const a = actual.posterior();
  const b = expected.posterior();
  expectClose(a.w, b.w, TIGHT, 'posterior mean w_N');
  expectClose(a.V, b.V, TIGHT, 'V_N');
  expectClose([a.an, a.bn, a.logDetV], [b.an, b.bn, b.logDetV], TIGHT, 'a_N, b_N, ln|V_N|');
}

describe('one consumer process, 200k records on 4 partitions (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('learns every record once: the merged posterior equals the batch fit (1e-10), offsets committed to the end; scoring reads it', async () => {
    const topic = unique('exact');
    const groupId = unique('learners');
    await createTopic(admin, topic, 4);
    const data = syntheticData(200_000, 10, 11);
    await produceValues(port, topic, Array.from({ length: data.n }, (_, i) => recordJson(data, i)), 4);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    const learner = new PartitionedLearner(port, store, { topic, groupId, model: 'lin', family: 'vb-linear', schema: { dim: 10 }, snapshotEvery: 20_000 });
    let fatal: Error | undefined;
    await learner.start((error) => { fatal = error; });
    await waitFor(async () => fatal !== undefined || await snapshotsAtEnd(admin, store, topic, 'lin'), 'snapshots at the end of every partition');
    await learner.stop();
    expect(fatal).toBeUndefined();

    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    for (const { partition, high } of ends) expect(committed.partitions.find((p) => p.partition === partition)?.offset).toBe(high);
    expect(learner.recordsApplied).toBe(200_000);

    const combiner = new PosteriorCombiner(store, { model: 'lin', family: 'vb-linear', dim: 10, topic });
    const global = await combiner.combine([0, 1, 2, 3]);
    await combiner.publish(global);
    expect(global.records).toBe(200_000);
    expect(global.version).toBe('0:50000,1:50000,2:50000,3:50000');
    expectSamePosterior(global.model as VbLinearModel, batchFit('vb-linear', data) as VbLinearModel);

    const published = await readGlobalPosterior(store, 'lin');
    expect(published?.version).toBe(global.version);
    expectSamePosterior(published?.model as VbLinearModel, global.model as VbLinearModel);

    const scoreTopic = unique('score-in');
    const outputTopic = unique('score-out');
    await createTopic(admin, scoreTopic, 2);
    const probe = syntheticData(300, 10, 99);
    await produceValues(port, scoreTopic, Array.from({ length: probe.n }, (_, i) => JSON.stringify({ x: Array.from(probe.x.subarray(i * 10, i * 10 + 10)) })), 2);
    const sink = new ScoringSink(port, { inputTopic: scoreTopic, outputTopic, groupId: unique('scorers'), schema: { dim: 10 }, posterior: () => published as NonNullable<typeof published> });
    await sink.start((error) => { fatal = error; });
    // The sink is at-least-once: a consumer restart under load may score a partition's records again, each time alike.
    const predictions = await readRecords(port, outputTopic, probe.n, true);
    await sink.stop();
    await store.close();
    expect(new Set(predictions.map((p) => p.key))).toEqual(new Set(Array.from({ length: probe.n }, (_, i) => `k${i}`)));
    for (const p of predictions) {
      const i = Number(p.key?.slice(1));
      expect(p.partition).toBe(i % 2);
      const body = JSON.parse(p.value?.toString() ?? '') as { mean: number; variance: number; version: string };
      const expected = published?.model.predict(probe.x, i * 10);
      expect(body.version).toBe(global.version);
      expect(body.mean).toBe(expected?.mean);
      expect(body.variance).toBe(expected?.variance);
    }
  });
});
