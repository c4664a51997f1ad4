import { describe, expect, it } from 'vitest';
import { BanditLearner, type BanditLearnerOptions } from '../../bandit/kafka/bandit-learner.js';
import type { BanditLearnerEvent } from '../../bandit/kafka/bandit-learner-event.js';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { readRecords, suiteBroker, unique, waitFor } from './helpers.js';

const LIMIT = 16_384;
const PENDING = 400;
/** Bytes per state record: room for the Thompson model's snapshot (3 arms of d = 4, each with its adaptive-forgetting candidates, ~8.2 kB) and far below the 400 pending decisions. */
const STATE_RECORD_BYTES = 12_000;

/**
 * Pending decisions beyond one record's size: the state topic accepts records of at most 16 KiB
 * (a larger one is refused by the broker), 400 pending decisions take ~100 KB, so the learner cuts
 * them into chunks of at most 12,000 bytes; a second learner restores them whole from the chunks
 * (a reward for a restored decision is learned, a second reward for one resolved before the restart
 * is a duplicate), and the chunks of superseded states are removed.
 */
describe('bandit learner: pending decisions in chunks under a record-size limit (real broker)', () => {
  const { port } = suiteBroker();

  it('writes pending decisions larger than one record in chunks and restores them whole', async () => {
    const prefix = unique('kbandit-chunks');
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state`, config: { 'max.message.bytes': String(LIMIT) } });
    await expect(store.save('too-large', new Uint8Array(2 * LIMIT)), 'the limit is the broker\'s').rejects.toThrow();
    const events: BanditLearnerEvent[] = [];
    const options: BanditLearnerOptions = {
      decisionsTopic: `${prefix}.decisions`, rewardsTopic: `${prefix}.rewards`, model: 'm', createPolicy: () => new ThompsonPolicy({ seed: 1, arms: 3, dim: 4 }),
      rewardWindowMs: 1e9, snapshotEvery: 1, maxStateRecordBytes: STATE_RECORD_BYTES, onEvent: (event) => events.push(event),
    };
    let failure: Error | undefined;
    const first = new BanditLearner(port, store, options);
    await first.start((error) => { failure = error; });
    const producer = port.producer();
    await producer.connect();
    const ids = Array.from({ length: PENDING }, (_, i) => `d-${i}`);
    await producer.send({
      topic: options.decisionsTopic, acks: -1,
      messages: ids.map((decisionId, i) => ({ key: decisionId, value: JSON.stringify({ decisionId, arm: i % 3, context: [1, i / PENDING, Math.sin(i), Math.cos(i)], propensity: 0.5, propensityMethod: 'exact', scores: [0.1, 0.2, 0.3], decidedAt: Date.now(), instance: 'test', policyRewards: 0 }) })),
    });
    const reward = (decisionId: string) => ({ key: decisionId, value: JSON.stringify({ decisionId, reward: 1 }) });
    await producer.send({ topic: options.rewardsTopic, acks: -1, messages: [reward(ids[0])] });
    const chunked = (e: BanditLearnerEvent): boolean => e.type === 'checkpoint' && e.learned === 1 && e.pending === PENDING - 1;
    await waitFor(() => events.some(chunked), () => `a state with ${PENDING - 1} pending decisions (failure: ${failure?.message})`);
    const checkpoint = events.find(chunked) as Extract<BanditLearnerEvent, { type: 'checkpoint' }>;
    expect(checkpoint.chunks, 'chunks of at most 12,000 bytes').toBeGreaterThanOrEqual(8);
    await first.stop();
    expect(failure).toBeUndefined();

    events.length = 0;
    const second = new BanditLearner(port, store, options);
    await second.start((error) => { failure = error; });
    await waitFor(() => events.some((e) => e.type === 'restored'), 'the second learner to restore');
    expect(events.find((e) => e.type === 'restored')).toMatchObject({ partition: 0, fromSnapshot: true, pending: PENDING - 1, learned: 1 });
    await producer.send({ topic: options.rewardsTopic, acks: -1, messages: [reward(ids[PENDING - 1]), reward(ids[0])] });
    await waitFor(() => second.learned === 2 && second.pendingCount === PENDING - 2, () => `the restored decision's reward learned (${second.learned})`);
    const letters = await readRecords(port, `${options.rewardsTopic}.dlq`, 1);
    expect(letters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([[ids[0], 'duplicate-reward']]);
    await second.stop();
    await producer.disconnect();
    expect(failure).toBeUndefined();

    const last = events.filter((e): e is Extract<BanditLearnerEvent, { type: 'checkpoint' }> => e.type === 'checkpoint').at(-1)!;
    const chunkKeys = (await store.keys()).filter((key) => key.startsWith('m/learner/0/pending/'));
    expect(chunkKeys.length, 'only the chunks of the latest state are kept').toBe(last.chunks);
    expect(new Set(chunkKeys.map((key) => key.split('/')[4])).size).toBe(1);
    await store.close();
  });

  it('a model snapshot larger than one state record, due on the snapshot timer, fails the learner once through onFatal: no uncaught exception', async () => {
    const prefix = unique('kbandit-too-large');
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state`, config: { 'max.message.bytes': String(LIMIT) } });
    const uncaught: unknown[] = [];
    const listener = (error: unknown): void => { uncaught.push(error); };
    process.on('uncaughtException', listener);
    const failures: Error[] = [];
    const learner = new BanditLearner(port, store, {
      decisionsTopic: `${prefix}.decisions`, rewardsTopic: `${prefix}.rewards`, model: 'm', createPolicy: () => new ThompsonPolicy({ seed: 1, arms: 3, dim: 4 }),
      rewardWindowMs: 1e9, snapshotEvery: 1_000_000, snapshotEveryMs: 50, maxStateRecordBytes: 2_000,
    });
    try {
      await learner.start((error) => { failures.push(error); });
      const producer = port.producer();
      await producer.connect();
      await producer.send({ topic: `${prefix}.decisions`, acks: -1, messages: [{ key: 'd-0', value: JSON.stringify({ decisionId: 'd-0', arm: 0, context: [1, 0.5, 0, 1], propensity: 0.5, propensityMethod: 'exact', scores: [0.1, 0.2, 0.3], decidedAt: Date.now(), instance: 'test', policyRewards: 0 }) }] });
      await producer.send({ topic: `${prefix}.rewards`, acks: -1, messages: [{ key: 'd-0', value: JSON.stringify({ decisionId: 'd-0', reward: 1 }) }] });
      await producer.disconnect();
      await waitFor(() => failures.length > 0 || uncaught.length > 0, 'the too-large snapshot to fail the learner');
      expect(uncaught).toEqual([]);
      expect(failures[0]?.message).toMatch(/model snapshot of partition 0 takes \d+ bytes, more than maxStateRecordBytes \(2000\)/);
    } finally {
      process.off('uncaughtException', listener);
      await learner.stop().catch(() => undefined);
      await store.close();
    }
  });
});
