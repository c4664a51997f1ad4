import { randomUUID } from 'node:crypto';
import { Observable } from 'rxjs';
import type { KafkaPort, PortMessage } from 'vbstream/kafka';
import { restoreSnapshotEvent } from 'vbstream';
import type { LoadedSnapshot } from './loaded-snapshot.js';

/** Options of {@link watchSnapshotTopic}. */
export interface WatchTopicOptions {
  /** The compacted snapshot topic (as `KafkaSnapshotStore` writes it). */
  readonly topic: string;
  /** The snapshot key to follow, e.g. `model/global` or `model/0`. */
  readonly key: string;
  /** Refuse snapshots of another family or width (as `restoreSnapshotEvent`). */
  readonly family?: string;
  readonly dim?: number;
  /** Told about a snapshot that could not be restored (corrupt, foreign); the previous one keeps serving. */
  readonly onError?: (error: Error) => void;
}

/**
 * The latest snapshot under `key` of a Kafka snapshot topic, now and whenever a newer one is
 * produced: a consumer (its own group, never committing) reads the topic from the beginning, and of
 * each fetched batch restores the newest message with the key at an offset beyond the last one
 * emitted (falling back to older ones of the batch if it fails), and only then emits it with
 * `sequence` = offset + 1 and `origin` = `topic/partition@offset`. A message that fails to restore is
 * reported to `onError` and skipped; the stream errors only if the consumer itself fails.
 * Unsubscribing disconnects the consumer.
 */
export function watchSnapshotTopic(port: KafkaPort, options: WatchTopicOptions): Observable<LoadedSnapshot> {
  return new Observable<LoadedSnapshot>((subscriber) => {
    const consumer = port.consumer({ groupId: `vbstream-scoring-${randomUUID()}`, maxWaitTimeInMs: 100, maxBytesPerPartition: 16_777_216 });
    let lastOffset = -1;
    let stopped = false;
    const restoreNewest = (partition: number, messages: PortMessage[]): void => {
      for (let i = messages.length - 1; i >= 0; i--) {
        const { offset, value } = messages[i];
        const origin = `${options.topic}/${partition}@${offset}`;
        try {
          const restored = restoreSnapshotEvent(new Uint8Array(value!), origin, { family: options.family, dim: options.dim });
          lastOffset = Number(offset);
          subscriber.next({ model: restored.model, event: restored.event, origin, sequence: lastOffset + 1 });
          return;
        } catch (error) {
          options.onError?.(error as Error);
        }
      }
      lastOffset = Number(messages[messages.length - 1].offset);
    };
    const started = (async () => {
      await consumer.connect();
      consumer.on('consumer.crash', ({ payload }) => { if (!payload.restart && !stopped) subscriber.error(payload.error); });
      await consumer.subscribe({ topics: [options.topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          const fresh = batch.messages.filter((m) => m.key?.toString('utf8') === options.key && m.value !== null && Number(m.offset) > lastOffset);
          if (fresh.length > 0 && !stopped) restoreNewest(batch.partition, fresh);
        },
      });
    })();
    started.catch((error: Error) => { if (!stopped) subscriber.error(error); });
    return () => {
      stopped = true;
      void started.finally(() => consumer.disconnect()).catch(() => undefined);
    };
  });
}
