import { randomUUID } from 'node:crypto';
import { decodeGlobalPosterior } from '../connectors/kafka/decode-global-posterior.js';
import type { ConsumerPort, KafkaPort, PortMessage } from '../connectors/kafka/kafka-port.js';
import { snapshotKey } from '../connectors/kafka/snapshot-key.js';
import { decodeSnapshotEvent } from '../src/core/decode-snapshot-event.js';
import { SnapshotError } from '../src/core/snapshot-error.js';
import type { PosteriorSink } from './posterior-sink.js';
import type { PosteriorSource } from './posterior-source.js';
import type { SnapshotCandidate } from './snapshot-candidate.js';

/** Options of {@link SnapshotTopicSource}. */
export interface SnapshotTopicSourceOptions {
  /** The compacted snapshot topic (as `KafkaSnapshotStore` writes it). */
  readonly topic: string;
  /** The model name of the snapshot keys: `vbstream run` names its models `<family>@<topic>`. */
  readonly model: string;
  /** Follow one partition's model (`<model>/<p>`, written by `vbstream run`) or the merged posterior (`<model>/global`, by `kafka:combine` or an outcome learner). */
  readonly partition: number | 'global';
}

/**
 * The posteriors under one key of a Kafka snapshot topic: a consumer of its own group (never
 * committing) reads the topic from the beginning and, of each batch, offers the newest record under
 * the key beyond the last one offered (falling back to older ones of the batch when the newest is
 * refused). One partition's model (a snapshot event) is served as version `<p>:<nextOffset>`; the
 * merged posterior as its published `version` (`p:offset,…`), made at its record's timestamp.
 */
export class SnapshotTopicSource implements PosteriorSource {
  readonly description: string;
  private readonly key: string;
  private consumer: ConsumerPort | undefined;
  private lastOffset = -1;
  private stopped = false;

  constructor(private readonly port: KafkaPort, private readonly options: SnapshotTopicSourceOptions) {
    this.key = snapshotKey(options.model, options.partition);
    this.description = `${options.topic} key ${this.key}`;
  }

  async start(sink: PosteriorSink, onFatal: (error: Error) => void): Promise<void> {
    const consumer = this.port.consumer({ groupId: `vbstream-serve-${randomUUID()}`, maxWaitTimeInMs: 100, maxBytesPerPartition: 16_777_216 });
    this.consumer = consumer;
    await consumer.connect();
    consumer.on('consumer.crash', ({ payload }) => { if (!payload.restart && !this.stopped) onFatal(payload.error); });
    await consumer.subscribe({ topics: [this.options.topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const fresh = batch.messages.filter((m) => m.key?.toString('utf8') === this.key && m.value !== null && Number(m.offset) > this.lastOffset);
        if (fresh.length === 0 || this.stopped) return;
        this.lastOffset = Number(fresh[fresh.length - 1].offset);
        for (let i = fresh.length - 1; i >= 0; i--) {
          const origin = `${this.options.topic}/${batch.partition}@${fresh[i].offset}`;
          let candidate: SnapshotCandidate;
          try {
            candidate = this.decode(fresh[i], origin);
          } catch (error) {
            sink.refuse(origin, error);
            continue;
          }
          if (sink.offer(candidate)) return;
        }
      },
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.consumer?.disconnect();
  }

  private decode(message: PortMessage, origin: string): SnapshotCandidate {
    const bytes = new Uint8Array(message.value!);
    const { partition } = this.options;
    if (partition === 'global') {
      let published;
      try {
        published = decodeGlobalPosterior(bytes);
      } catch (error) {
        throw new SnapshotError((error as Error).message, { source: origin, field: 'bytes' }, { cause: error });
      }
      return { snapshot: published.snapshot, version: published.version, createdAt: Number(message.timestamp), origin };
    }
    const { event, meta } = decodeSnapshotEvent(bytes, origin);
    if (typeof meta.nextOffset !== 'number') throw new SnapshotError('snapshot has no nextOffset: not one partition\'s model as `vbstream run` writes it', { source: origin, field: 'nextOffset' });
    return { snapshot: event.snapshot, version: `${partition}:${meta.nextOffset}`, createdAt: Date.parse(event.createdAt), origin };
  }
}
