import { describe, expect, it, vi } from 'vitest';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { getFamily } from '../../../src/registry.js';
import { SnapshotError } from '../../../src/core/snapshot-error.js';
import { PartitionedLearner } from '../../../connectors/kafka/partitioned-learner.js';
import type { LearnerEvent } from '../../../connectors/kafka/learner-event.js';
import { PATIENCE_MS } from '../../helpers/wait-for.js';
import { InMemoryKafka, InMemorySnapshotStore } from './in-memory-kafka.js';

/** How long a test waits for the learner to react (the suite's patience: it may run on a busy machine). */
const REACTION = { timeout: PATIENCE_MS };

const T = 'in';
const rows = Array.from({ length: 30 }, (_, i) => ({ x: [1, Math.sin(i), Math.cos(3 * i)], y: 0.5 * i - 2 + Math.sin(7 * i) }));

function setup(snapshotEvery = 10): { kafka: InMemoryKafka; store: InMemorySnapshotStore; learner: PartitionedLearner; events: LearnerEvent[] } {
  const kafka = new InMemoryKafka();
  kafka.createTopic(T, 1);
  for (const r of rows) kafka.append(T, 0, JSON.stringify(r));
  const store = new InMemorySnapshotStore();
  const events: LearnerEvent[] = [];
  const learner = new PartitionedLearner(kafka, store, { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, snapshotEvery, chunkSize: 4, onEvent: (e) => events.push(e) });
  return { kafka, store, learner, events };
}

function fitted(upTo: number): Float64Array {
  const model = getFamily('vb-linear').create(3);
  const x = Float64Array.from(rows.slice(0, upTo).flatMap((r) => r.x));
  model.update({ x, y: Float64Array.from(rows.slice(0, upTo).map((r) => r.y)), n: upTo, d: 3 });
  return model.posteriorMean();
}

/** The latest snapshot's offset, record count and the batch fit of the statistics it holds (vb-linear's merge into an empty model fits them from scratch). */
function latestState(store: InMemorySnapshotStore): { nextOffset: unknown; records: number; mean: Float64Array } {
  const { snapshot, meta } = decodeSnapshot(store.saved.at(-1)?.bytes as Uint8Array);
  const model = getFamily('vb-linear').restore(snapshot);
  const batch = getFamily('vb-linear').create(3);
  batch.merge!(model);
  return { nextOffset: meta.nextOffset, records: model.recordsSeen, mean: batch.posteriorMean() };
}

/** Makes the first commit of `kafka`'s consumers fail as during a rebalance (it stays owed, for the commit timer). */
function refuseFirstCommit(kafka: InMemoryKafka): void {
  let refusals = 1;
  const consumer = kafka.consumer.bind(kafka);
  kafka.consumer = () => {
    const port = consumer();
    const commit = port.commitOffsets.bind(port);
    port.commitOffsets = async (offsets) => {
      if (refusals-- > 0) throw new Error('The group is rebalancing, so a rejoin is needed');
      await commit(offsets);
    };
    return port;
  };
}

/** A snapshot store whose saves wait until the test releases them, oldest first. */
class GatedSnapshotStore extends InMemorySnapshotStore {
  readonly waiting: { offset: number; done: () => void }[] = [];

  override async save(key: string, bytes: Uint8Array): Promise<void> {
    await new Promise<void>((done) => this.waiting.push({ offset: Number(decodeSnapshot(bytes).meta.nextOffset), done }));
    await super.save(key, bytes);
  }

  release(): void {
    this.waiting.shift()?.done();
  }
}

describe('PartitionedLearner delivery logic (in-memory port)', () => {
  it('commits an offset only after the snapshot holding it is saved, every N records and at the end', async () => {
    const { kafka, store, learner, events } = setup(10);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    const order = events.filter((e) => e.type === 'snapshot-durable' || e.type === 'committed').map((e) => `${e.type}@${'nextOffset' in e ? e.nextOffset : ''}`);
    expect(order).toEqual(['snapshot-durable@12', 'committed@12', 'snapshot-durable@24', 'committed@24', 'snapshot-durable@30', 'committed@30']);
    expect(kafka.committed.get(0)).toBe('30');
    expect(latestState(store).records).toBe(30);
  });

  it('learning goes on while a snapshot is being saved (one save in flight at a time): the chunks after it are learned before it is durable, and every commit still follows its save', async () => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 1);
    for (const r of rows) kafka.append(T, 0, JSON.stringify(r));
    const store = new GatedSnapshotStore();
    const events: LearnerEvent[] = [];
    const learner = new PartitionedLearner(kafka, store, { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, snapshotEvery: 10, chunkSize: 4, onEvent: (e) => events.push(e) });
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0, 8);
    await vi.waitFor(() => expect(learner.recordsApplied).toBe(8), REACTION); // the learner has answered: a request is taken at once
    const delivered = kafka.deliver(T, 0, 8);
    await vi.waitFor(() => expect(store.waiting.map((w) => w.offset)).toEqual([12]), REACTION);
    await vi.waitFor(() => expect(learner.recordsApplied).toBe(24), REACTION); // the snapshot at 24 is due, and waits for the one at 12
    expect(store.waiting.map((w) => w.offset)).toEqual([12]);
    expect(kafka.committed.get(0)).toBeUndefined();
    for (const offset of [12, 24, 30]) {
      await vi.waitFor(() => expect(store.waiting.map((w) => w.offset)).toEqual([offset]), REACTION);
      store.release();
    }
    await delivered;
    const order = events.filter((e) => e.type === 'snapshot-durable' || e.type === 'committed').map((e) => `${e.type}@${'nextOffset' in e ? e.nextOffset : ''}`);
    expect(order).toEqual(['snapshot-durable@12', 'committed@12', 'snapshot-durable@24', 'committed@24', 'snapshot-durable@30', 'committed@30']);
    expect(latestState(store).records).toBe(30);
    await learner.stop();
  });

  it('after a rejoin, restores the latest snapshot and seeks to its offset when the consumer starts elsewhere; no record counts twice', async () => {
    const { kafka, store, learner, events } = setup(10);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0, 18); // snapshot at 12; records 12..17 applied but not saved
    expect(latestState(store).nextOffset).toBe(12);
    kafka.join(T, [0]); // a rebalance: the unsaved progress is dropped, the snapshot is the truth
    await kafka.deliver(T, 0, 5); // the consumer restarts from an older committed offset
    expect(kafka.seeks).toEqual([{ partition: 0, offset: '12' }]);
    expect(events.filter((e) => e.type === 'restored').map((e) => e.type === 'restored' && [e.fromSnapshot, e.nextOffset])).toEqual([[false, null], [true, 12]]);
    await kafka.deliver(T, 0, 12);
    const final = latestState(store);
    expect(final.nextOffset).toBe(30);
    expect(final.records).toBe(30);
    const expected = fitted(30);
    for (let j = 0; j < 3; j++) expect(final.mean[j]).toBeCloseTo(expected[j], 12);
  });

  it('skips records below the next offset when a batch overlaps what is already applied', async () => {
    const { kafka, store, learner } = setup(100);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0, 20);
    await kafka.deliver(T, 0, 10); // redelivery of 10..19 (e.g. a retried fetch)
    expect(latestState(store).records).toBe(30);
  });

  it('sends a bad record to <topic>.dlq with reason, partition and offset, and leaves the model as if it had not been there', async () => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 1);
    kafka.append(T, 0, JSON.stringify(rows[0]));
    kafka.append(T, 0, '{"x":[1,2],"y":3}', 'bad');
    kafka.append(T, 0, JSON.stringify(rows[1]));
    const store = new InMemorySnapshotStore();
    const learner = new PartitionedLearner(kafka, store, { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 } });
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    const letters = kafka.topics.get(`${T}.dlq`)?.flat() ?? [];
    expect(letters).toHaveLength(1);
    expect(letters[0].key?.toString()).toBe('bad');
    expect(letters[0].headers).toMatchObject({ 'dlq-reason': 'wrong-width', 'dlq-source-topic': T, 'dlq-source-partition': '0', 'dlq-source-offset': '1' });
    expect(learner.deadLettersByReason()?.['wrong-width']).toBe(1);
    const state = latestState(store);
    expect(state.records).toBe(2);
    expect(state.nextOffset).toBe(3);
    expect(Array.from(state.mean)).toEqual(Array.from(fitted(2)));
  });
});

describe('PartitionedLearner input bound (schema.maxAbsInput, issue 26 item 6)', () => {
  it.each([true, false])('worker %s: a value beyond the bound is dead-lettered as out-of-range; one within a raised bound is learned, before and after the partition is restored', async (worker) => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 1);
    const values = [rows[0], { x: [1, 1e13, 0], y: 1 }, rows[1], { x: [1, 1e300, 0], y: 1 }, rows[2]];
    for (const value of values) kafka.append(T, 0, JSON.stringify(value));
    const store = new InMemorySnapshotStore();
    const learner = new PartitionedLearner(kafka, store, { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3, maxAbsInput: 1e15 }, worker, snapshotEvery: 100 });
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    kafka.join(T, [0]); // restored from the snapshot at offset 5
    kafka.append(T, 0, JSON.stringify({ x: [1, -1e13, 0], y: 2 }));
    kafka.append(T, 0, JSON.stringify({ x: [1, 2e15, 0], y: 2 }));
    await kafka.deliver(T, 0, 5);
    const letters = kafka.topics.get(`${T}.dlq`)?.flat() ?? [];
    expect(letters.map((l) => [l.headers['dlq-source-offset'], l.headers['dlq-reason'], l.headers['dlq-detail']])).toEqual([
      ['3', 'out-of-range', 'x[1] is 1e+300; feature is out of range: |value| > maxAbsInput (1e+15)'],
      ['6', 'out-of-range', 'x[1] is 2000000000000000; feature is out of range: |value| > maxAbsInput (1e+15)'],
    ]);
    const { snapshot, meta } = decodeSnapshot(store.saved.at(-1)?.bytes as Uint8Array);
    expect([meta.nextOffset, getFamily('vb-linear').restore(snapshot).recordsSeen]).toEqual([7, 5]);
    await learner.stop();
  });
});

describe('PartitionedLearner fault-proof edges (in-memory port)', () => {
  it.each([true, false])('worker %s: a snapshot that cannot be saved, due on the snapshot timer, fails the learner once through onFatal: no uncaught exception (as the keyed-join learner, commit 9d4c4c6)', async (worker) => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 1);
    for (const r of rows) kafka.append(T, 0, JSON.stringify(r));
    class RefusingStore extends InMemorySnapshotStore {
      override save(): Promise<void> {
        throw new SnapshotError('the snapshot is larger than the store takes', { field: 'snapshot' }); // synchronously, not a rejected promise
      }
    }
    const uncaught: unknown[] = [];
    const listener = (error: unknown): void => { uncaught.push(error); };
    process.on('uncaughtException', listener);
    process.on('unhandledRejection', listener);
    const fatal: Error[] = [];
    const learner = new PartitionedLearner(kafka, new RefusingStore(), { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, worker, snapshotEvery: 1_000, snapshotEveryMs: 20, chunkSize: 4 });
    try {
      await learner.start((error) => fatal.push(error));
      kafka.join(T, [0]);
      await kafka.deliver(T, 0, 0, 10); // behind the partition's end: no caught-up snapshot, only the timer's
      await vi.waitFor(() => expect(fatal.length + uncaught.length).toBeGreaterThan(0), REACTION);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
      expect(fatal).toHaveLength(1);
      expect(fatal[0].message).toMatch(/the snapshot is larger than the store takes/);
    } finally {
      process.off('uncaughtException', listener);
      process.off('unhandledRejection', listener);
      await learner.stop().catch(() => undefined);
    }
  });

  it('a snapshot that does not fit the configured model stops the service with a SnapshotError naming both sides, before any offset moves (issue 14, item 3)', async () => {
    const { kafka, store, learner } = setup(10);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    await learner.stop();
    const committedBefore = kafka.committed.get(0);
    for (const [change, pattern] of [[{ schema: { dim: 4 } }, /snapshot has 3 features, the pipeline has 4/], [{ family: 'vb-linear-ard' }, /snapshot is of family "vb-linear", the pipeline runs "vb-linear-ard"/]] as const) {
      const fatal: Error[] = [];
      const base = { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, snapshotEvery: 10, chunkSize: 4 };
      const restarted = new PartitionedLearner(kafka, store, { ...base, ...change });
      await restarted.start((error) => fatal.push(error));
      kafka.join(T, [0]);
      kafka.append(T, 0, JSON.stringify({ x: [1, 0, 0, 0].slice(0, 'schema' in change ? 4 : 3), y: 1 }));
      await kafka.deliver(T, 0, 30);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toBeInstanceOf(SnapshotError);
      expect(fatal[0].message).toMatch(pattern);
      expect(kafka.committed.get(0)).toBe(committedBefore);
      expect(kafka.resolved.get(0)).toBe('29');
      await restarted.stop().catch(() => undefined);
    }
  });

  it('a restore that fails stops the service at once, before any batch is learned, and no partition of the join writes or commits (issue 26, item 2)', async () => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 2);
    for (const [i, r] of rows.entries()) kafka.append(T, i % 2, JSON.stringify(r));
    const store = new InMemorySnapshotStore();
    const base = { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, snapshotEvery: 10, chunkSize: 4 };
    const first = new PartitionedLearner(kafka, store, base);
    await first.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0); // partition 0 has a snapshot of d = 3; partition 1 none, and no committed offset
    await first.stop();
    const saved = store.saved.length;
    const fatal: Error[] = [];
    const events: LearnerEvent[] = [];
    const wider = new PartitionedLearner(kafka, store, { ...base, schema: { dim: 4 }, onEvent: (e) => events.push(e) });
    await wider.start((error) => fatal.push(error));
    kafka.join(T, [0, 1]);
    await vi.waitFor(() => expect(fatal).toHaveLength(1), REACTION); // reported without any batch
    expect(fatal[0]).toBeInstanceOf(SnapshotError);
    await kafka.deliver(T, 1, 0); // a batch of the partition without a snapshot: not learned, nothing dead-lettered
    expect(store.saved).toHaveLength(saved);
    expect(kafka.committed.has(1)).toBe(false);
    expect(kafka.topics.get(`${T}.dlq`)?.flat() ?? []).toEqual([]);
    expect(events.some((e) => e.type === 'snapshot-writing')).toBe(false);
    await wider.stop().catch(() => undefined);
  });

  it('a committed offset without a snapshot of this model is refused naming both sides; missingSnapshot "from-earliest" seeks to the earliest offset and learns it all (issue 26, item 1)', async () => {
    const { kafka, store, learner } = setup(100);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    await learner.stop();
    expect(kafka.committed.get(0)).toBe('30');
    const fatal: Error[] = [];
    const base = { topic: T, groupId: 'g', model: 'other', family: 'vb-linear-ard', schema: { dim: 3 }, snapshotEvery: 100, chunkSize: 4 };
    const other = new PartitionedLearner(kafka, store, base);
    await other.start((error) => fatal.push(error));
    kafka.join(T, [0]);
    await vi.waitFor(() => expect(fatal).toHaveLength(1), REACTION);
    expect(fatal[0]).toBeInstanceOf(SnapshotError);
    expect(fatal[0].message).toContain('partition 0 of in: group g has committed offset 30, but there is no snapshot other/0 of the configured model (vb-linear-ard, d=3)');
    await other.stop().catch(() => undefined);
    const over = new PartitionedLearner(kafka, store, { ...base, missingSnapshot: 'from-earliest' });
    await over.start(() => undefined);
    kafka.join(T, [0]);
    await vi.waitFor(() => expect(kafka.seeks.at(-1)).toEqual({ partition: 0, offset: '0' }), REACTION);
    await kafka.deliver(T, 0, 0);
    await over.stop();
    const { meta } = decodeSnapshot(store.saved.filter((s) => s.key === 'other/0').at(-1)?.bytes as Uint8Array);
    expect([meta.nextOffset, meta.records]).toEqual([30, 30]);
  });

  it('a commit refused during a rebalance is retried until the committed offset reaches the durable snapshot, with no new record (issue 14, item 8)', async () => {
    const { kafka, learner } = setup(100);
    refuseFirstCommit(kafka);
    await learner.start(() => undefined);
    kafka.join(T, [0]);
    await kafka.deliver(T, 0, 0);
    expect(kafka.committed.get(0)).toBeUndefined();
    await vi.waitFor(() => expect(kafka.committed.get(0)).toBe('30'), REACTION);
    await learner.stop();
  });

  it('an onEvent that throws on a commit retried by the commit timer fails the learner once through onFatal: no unhandled rejection (as the keyed-join learner, commit 9d4c4c6)', async () => {
    const kafka = new InMemoryKafka();
    kafka.createTopic(T, 1);
    for (const r of rows) kafka.append(T, 0, JSON.stringify(r));
    refuseFirstCommit(kafka);
    const uncaught: unknown[] = [];
    const listener = (error: unknown): void => { uncaught.push(error); };
    process.on('uncaughtException', listener);
    process.on('unhandledRejection', listener);
    const fatal: Error[] = [];
    const onEvent = (event: LearnerEvent): void => { if (event.type === 'committed') throw new Error(`the event handler failed on the commit of ${event.nextOffset}`); };
    const learner = new PartitionedLearner(kafka, new InMemorySnapshotStore(), { topic: T, groupId: 'g', model: 'm', family: 'vb-linear', schema: { dim: 3 }, snapshotEvery: 100, chunkSize: 4, onEvent });
    try {
      await learner.start((error) => fatal.push(error));
      kafka.join(T, [0]);
      await kafka.deliver(T, 0, 0); // the caught-up snapshot's commit is refused: the timer commits it
      await vi.waitFor(() => expect(fatal.length + uncaught.length).toBeGreaterThan(0), REACTION);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
      expect(fatal).toHaveLength(1);
      expect(fatal[0].message).toMatch(/the event handler failed on the commit of 30/);
    } finally {
      process.off('uncaughtException', listener);
      process.off('unhandledRejection', listener);
      await learner.stop().catch(() => undefined);
    }
  });
});
