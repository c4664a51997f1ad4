import { describe, expect, it } from 'vitest';
import type { ConsumerPort, KafkaPort, PortMessage } from '../../connectors/kafka/kafka-port.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { brokerPort, unique } from './helpers.js';

/** A snapshot's size: adf-logit's at p = 100 is about 227 KB. */
const SNAPSHOT_BYTES = 200_000;

/** `port`, with the bytes of the record values its consumers hand to `eachBatch` counted in `read.bytes` when read (each value once). */
function countingPort(port: KafkaPort): { port: KafkaPort; read: { bytes: number } } {
  const read = { bytes: 0 };
  const counted = (message: PortMessage): PortMessage => {
    let seen = false;
    return Object.create(message, {
      value: {
        get: () => {
          if (!seen) read.bytes += message.value?.length ?? 0;
          seen = true;
          return message.value;
        },
      },
    }) as PortMessage;
  };
  return {
    read,
    port: {
      producer: (config) => port.producer(config),
      admin: () => port.admin(),
      consumer(config) {
        const consumer = port.consumer(config);
        return {
          connect: () => consumer.connect(), disconnect: () => consumer.disconnect(), stop: () => consumer.stop(),
          subscribe: (subscription) => consumer.subscribe(subscription), seek: (target) => consumer.seek(target),
          pause: (targets) => consumer.pause(targets), resume: (targets) => consumer.resume(targets), commitOffsets: (offsets) => consumer.commitOffsets(offsets),
          on: ((event: 'consumer.crash', listener: never) => consumer.on(event, listener)) as ConsumerPort['on'],
          run: (options) => consumer.run({
            ...options,
            eachBatch: (payload) => options.eachBatch({
              resolveOffset: (offset) => payload.resolveOffset(offset), heartbeat: () => payload.heartbeat(), isRunning: () => payload.isRunning(), isStale: () => payload.isStale(),
              batch: { topic: payload.batch.topic, partition: payload.batch.partition, highWatermark: payload.batch.highWatermark, messages: payload.batch.messages.map(counted), lastOffset: () => payload.batch.lastOffset() },
            }),
          }),
        };
      },
    },
  };
}

const snapshot = (fill: number): Uint8Array => new Uint8Array(SNAPSHOT_BYTES).fill(fill);

describe('the Kafka snapshot store (real broker)', () => {
  it('does not read back the snapshots it wrote itself, and still answers every key with the last record of the topic, by any writer', async () => {
    const topic = unique('snapshot-store');
    const counting = countingPort(brokerPort());
    const store = await KafkaSnapshotStore.open(counting.port, { topic });
    const other = await KafkaSnapshotStore.open(brokerPort(), { topic });
    try {
      for (let k = 0; k < 5; k++) await store.save(`m/${k % 2}`, snapshot(k));
      expect(await store.latest('m/0')).toEqual(snapshot(4));
      expect(await store.latest('m/1')).toEqual(snapshot(3));
      expect(counting.read.bytes, 'bytes of its own snapshots read back').toBe(0);

      // Another writer's snapshot is read (once), and a key's last record wins whoever wrote it: the other's after ours, ours after the other's.
      await other.save('m/1', snapshot(9));
      expect(await store.latest('m/1')).toEqual(snapshot(9));
      expect(counting.read.bytes).toBe(SNAPSHOT_BYTES);
      await store.save('m/1', snapshot(10));
      expect(await store.latest('m/1')).toEqual(snapshot(10));
      expect(await other.latest('m/1')).toEqual(snapshot(10));
      await store.remove('m/0');
      expect(await store.latest('m/0')).toBeUndefined();
      expect((await store.keys()).sort()).toEqual(['m/1']);
      expect(counting.read.bytes).toBe(SNAPSHOT_BYTES);
    } finally {
      await other.close();
      await store.close();
    }

    // A restarted process reads every snapshot, its earlier own ones included.
    const restarted = countingPort(brokerPort());
    const again = await KafkaSnapshotStore.open(restarted.port, { topic });
    try {
      expect(await again.latest('m/1')).toEqual(snapshot(10));
      expect(await again.latest('m/0')).toBeUndefined();
      expect(restarted.read.bytes).toBe(7 * SNAPSHOT_BYTES);
    } finally {
      await again.close();
    }
  });
});
