import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import { snapshotKey } from '../../../connectors/kafka/snapshot-key.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { getFamily } from '../../../src/registry.js';
import { expectSameState } from '../../helpers/same-state.js';
import { taskRecords } from '../../helpers/task-data.js';
import { readRecords, ServiceProcess, snapshotsAtEnd, unique, suiteBroker, waitFor } from '../../kafka/helpers.js';

const D = 3;

/** Malformed values and the dead-letter reason each must get (`x` arrays of width 3, binary labels). */
const MALFORMED: readonly [string, Buffer | null][] = [
  ['bad-json', Buffer.from('{"x":[1,0.5,0.2],"y":1')],
  ['bad-json', Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0xff, 0xfe, 0x7d])],
  ['empty', null],
  ['bad-shape', Buffer.from('[1,0.5,0.2,1]')],
  ['bad-shape', Buffer.from('"a string"')],
  ['wrong-width', Buffer.from('{"x":[1,0.5],"y":1}')],
  ['non-numeric', Buffer.from('{"x":[1,"NaN",0.2],"y":1}')],
  ['non-numeric', Buffer.from('{"x":[1,"Infinity",0.2],"y":0}')],
  ['non-finite', Buffer.from('{"x":[1,1e999,0.2],"y":1}')],
  ['out-of-range', Buffer.from('{"x":[1,1e200,0.2],"y":1}')],
  ['out-of-range', Buffer.from('{"x":[1,0.5,-2e12],"y":0}')],
  ['bad-label', Buffer.from('{"x":[1,0.5,0.2],"y":2}')],
  ['bad-label', Buffer.from('{"x":[1,0.5,0.2]}')],
  ['bad-shape', Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)],
  ['oversize', Buffer.from(JSON.stringify({ x: [1, 0.5, 0.2], y: 1, pad: 'z'.repeat(2_000_000) }))],
];

describe('a malformed-record mix through Kafka (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('dead-letters every bad record with its reason and no good one, learns exactly the good ones, and keeps running', async () => {
    const topic = unique('mix');
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: '4194304' }] }], waitForLeaders: true });
    const good = taskRecords('classification', 600, D, 17);
    const values: (Buffer | null)[] = [];
    const reasons = new Map<number, string>();
    good.forEach((record, i) => {
      values.push(Buffer.from(JSON.stringify({ x: Array.from(record.x), y: record.y })));
      if (i % 40 === 20) {
        const [reason, value] = MALFORMED[(i / 40 - 0.5) % MALFORMED.length | 0];
        reasons.set(values.length, reason);
        values.push(value);
      }
    });
    for (const [reason, value] of MALFORMED) {
      reasons.set(values.length, reason);
      values.push(value);
    }
    const producer = port.producer();
    await producer.connect();
    for (let i = 0; i < values.length; i += 20) await producer.send({ topic, messages: values.slice(i, i + 20).map((value, k) => ({ key: `k${i + k}`, value })), acks: -1 });
    await producer.disconnect();
    const model = unique('mix');
    const service = new ServiceProcess(['--topic', topic, '--group', unique('mix-group'), '--family', 'vb-logit-online', '--dim', String(D), '--model', model, '--snapshot-every', '100', '--chunk-size', '50']);
    const store = await KafkaSnapshotStore.open(port, { topic: `${topic}.snapshots` });
    await waitFor(() => snapshotsAtEnd(admin, store, topic, model), 'the snapshot at the end');
    const letters = await readRecords(port, `${topic}.dlq`, reasons.size);
    expect(letters).toHaveLength(reasons.size);
    const lettered = new Map(letters.map((l) => [Number(l.headers[DEAD_LETTER_HEADERS.offset]), l.headers[DEAD_LETTER_HEADERS.reason]]));
    expect(new Map([...lettered].sort((a, b) => a[0] - b[0]))).toEqual(new Map([...reasons].sort((a, b) => a[0] - b[0])));
    let exited = false;
    void service.exited.then(() => { exited = true; });
    await new Promise((resolve) => setTimeout(resolve, 500)); // a period in which the service must not exit: the fixed wait is the point
    expect(exited).toBe(false);
    const learned = getFamily('vb-logit-online').restore(decodeSnapshot((await store.latest(snapshotKey(model, 0)))!).snapshot);
    const expected = getFamily('vb-logit-online').create(D);
    for (const record of good) expected.update({ x: record.x, y: Float64Array.of(record.y), n: 1, d: D });
    expectSameState(learned.snapshot(), expected.snapshot());
    expect((await service.stop()).code).toBe(0);
    expect(service.stderr).toBe('');
    await store.close();
  });
});
