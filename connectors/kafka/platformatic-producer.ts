import { Producer, type MessageToProduce, type ProducerOptions } from '@platformatic/kafka';
import { defaultPartition } from './default-partition.js';
import type { PortHeaders, PortOutgoingMessage, ProducerPort } from './kafka-port.js';
import { platformaticFailure } from './platformatic-failure.js';
import { produceSlices } from './produce-slices.js';

type Message = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/**
 * {@link ProducerPort} on a `@platformatic/kafka` producer. Each send places its records itself —
 * the explicit partition, else Kafka's default partitioner on the key ({@link defaultPartition},
 * the Java client's and kafkajs's choice; the client's own differs), else round robin — groups
 * them per partition in one O(n) pass (order kept within each partition) and hands them to the
 * client at once, which sends one produce request per broker carrying all its partitions; a
 * partition holding more than about 512 KiB ({@link produceSlices}, under the broker's
 * `message.max.bytes`) goes in several such sends, one after the other.
 * An idempotent producer (or `maxInFlightRequests: 1`) sends one request at a time, in call order:
 * the client numbers a partition's sequences only when a send is acknowledged. A request it retries
 * whole is safe (the broker drops a batch whose sequence it has already written), but after a send
 * that failed — refused in part, or unanswered past the client's retries — the partitions it did
 * write are ahead of the client's numbering, and a next batch of the same size there would be taken
 * for a duplicate and dropped: so the next send first takes a new producer id (sequences from 0).
 * The failed send's callers fail; no other send does. Without idempotence a request retried whole
 * may write again the records of partitions it had written, as with any Kafka client (every
 * producer of vbstream's own is idempotent).
 */
export class PlatformaticProducer implements ProducerPort {
  private readonly client: Producer<Buffer, Buffer, Buffer, Buffer>;
  private readonly serial: boolean;
  private readonly idempotent: boolean;
  /** Set by a failed send of an idempotent producer: the next send first takes a new producer id, its sequences from 0. */
  private stale = false;
  private readonly roundRobin = new Map<string, number>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Partitions per topic, asked again after {@link METADATA_MAX_AGE_MS} (the client's own metadata age). */
  private readonly partitionCounts = new Map<string, { readonly count: number; readonly until: number }>();

  constructor(options: ProducerOptions<Buffer, Buffer, Buffer, Buffer>, config: { idempotent?: boolean; maxInFlightRequests?: number; allowAutoTopicCreation?: boolean }) {
    this.client = new Producer({ ...options, idempotent: config.idempotent ?? false, autocreateTopics: config.allowAutoTopicCreation ?? true });
    this.idempotent = config.idempotent === true;
    this.serial = this.idempotent || config.maxInFlightRequests === 1;
  }

  async connect(): Promise<void> {
    await this.client.metadata({ topics: [] }).catch((error: unknown) => { throw platformaticFailure(error); });
  }

  async disconnect(): Promise<void> {
    await this.tail.catch(() => undefined);
    await this.client.close();
  }

  /** Sends `record`; a failure is the client's error as one line naming its causes ({@link platformaticFailure}). */
  send(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number; timeout?: number }): Promise<unknown> {
    if (!this.serial) return this.sendNow(record);
    const sent = this.tail.then(() => this.sendNow(record), () => this.sendNow(record));
    this.tail = sent.catch(() => undefined);
    return sent;
  }

  private async sendNow(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number }): Promise<unknown> {
    try {
      if (this.stale) {
        await this.client.initIdempotentProducer({});
        this.stale = false;
      }
      return await this.produce(record);
    } catch (error) {
      this.stale = this.idempotent;
      throw platformaticFailure(error);
    }
  }

  private async produce(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number }): Promise<unknown> {
    const { topic } = record;
    const partitions = await this.partitionsOf(topic);
    const perPartition: PortOutgoingMessage[][] = Array.from({ length: partitions }, () => []);
    let next = this.roundRobin.get(topic) ?? 0;
    for (const message of record.messages) {
      let partition = message.partition;
      if (partition === undefined) partition = message.key === undefined || message.key === null ? next++ % partitions : defaultPartition(toBuffer(message.key), partitions);
      perPartition[partition].push(message);
    }
    this.roundRobin.set(topic, next % partitions);
    const acks = record.acks ?? -1;
    const slices = perPartition.map((messages) => produceSlices(messages));
    const rounds = Math.max(...slices.map((s) => s.length));
    const acknowledged: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      const messages: Message[] = [];
      for (let partition = 0; partition < partitions; partition++) {
        for (const message of slices[partition][round] ?? []) messages.push({ topic, partition, key: message.key === undefined || message.key === null ? undefined : toBuffer(message.key), value: message.value === null ? undefined : toBuffer(message.value), headers: message.headers === undefined ? undefined : headersOf(message.headers) });
      }
      acknowledged.push(await this.client.send({ acks, messages }));
    }
    return acknowledged;
  }

  private async partitionsOf(topic: string): Promise<number> {
    const known = this.partitionCounts.get(topic);
    const now = Date.now();
    if (known !== undefined && known.until > now) return known.count;
    const count = (await this.client.metadata({ topics: [topic] })).topics.get(topic)?.partitionsCount ?? 1;
    this.partitionCounts.set(topic, { count, until: now + METADATA_MAX_AGE_MS });
    return count;
  }
}

/** How long a topic's partition count is used before it is asked again, ms: the client's default `metadataMaxAge`. */
const METADATA_MAX_AGE_MS = 5_000;

function toBuffer(data: Buffer | string): Buffer {
  return typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
}

/** Headers as the client takes them: a Map keyed by distinct Buffers, so a name may repeat. */
function headersOf(headers: PortHeaders): Map<Buffer, Buffer> {
  const map = new Map<Buffer, Buffer>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) map.set(Buffer.from(name, 'utf8'), toBuffer(v));
  }
  return map;
}
