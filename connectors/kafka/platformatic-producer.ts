import { Producer, type MessageToProduce, type ProducerOptions } from '@platformatic/kafka';
import { defaultPartition } from './default-partition.js';
import type { PortHeaders, PortOutgoingMessage, ProducerPort } from './kafka-port.js';
import { platformaticFailure } from './platformatic-failure.js';
import { fitsOneRequest, produceSlices } from './produce-slices.js';

type Message = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/**
 * {@link ProducerPort} on a `@platformatic/kafka` producer. Each send places its records itself —
 * the explicit partition, else Kafka's default partitioner on the key ({@link defaultPartition},
 * the Java client's and kafkajs's choice; the client's own differs), turning each key and value
 * into bytes once, and hands them to the client at once, which sends one produce request per
 * broker carrying all its partitions (order kept within each partition); a send of more than
 * about 512 KiB ({@link produceSlices}, under the broker's `message.max.bytes`) is grouped per
 * partition in one O(n) pass, and a partition holding more than that goes in several such sends,
 * one after the other.
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
    const acks = record.acks ?? -1;
    let next = this.roundRobin.get(topic) ?? 0;
    const placed: Message[] = new Array(record.messages.length);
    for (let i = 0; i < placed.length; i++) {
      const message = record.messages[i];
      const key = message.key === undefined || message.key === null ? undefined : toBuffer(message.key);
      const partition = message.partition ?? (key === undefined ? next++ % partitions : defaultPartition(key, partitions));
      placed[i] = { topic, partition, key, value: message.value === null ? undefined : toBuffer(message.value), headers: message.headers === undefined ? undefined : headersOf(message.headers) };
    }
    this.roundRobin.set(topic, next % partitions);
    if (fitsOneRequest(record.messages)) return [await this.client.send({ acks, messages: placed })];
    // Larger: each round sends the next slice of every partition (slices cut on the messages as given, taken from `placed` by count).
    const perPartition: Message[][] = Array.from({ length: partitions }, () => []);
    const originals: PortOutgoingMessage[][] = Array.from({ length: partitions }, () => []);
    for (let i = 0; i < placed.length; i++) {
      perPartition[placed[i].partition!].push(placed[i]);
      originals[placed[i].partition!].push(record.messages[i]);
    }
    const slices = originals.map((messages) => produceSlices(messages).map((slice) => slice.length));
    const rounds = Math.max(...slices.map((s) => s.length));
    const starts = new Array<number>(partitions).fill(0);
    const acknowledged: unknown[] = [];
    for (let round = 0; round < rounds; round++) {
      const messages: Message[] = [];
      for (let partition = 0; partition < partitions; partition++) {
        const length = slices[partition][round] ?? 0;
        for (let k = starts[partition]; k < starts[partition] + length; k++) messages.push(perPartition[partition][k]);
        starts[partition] += length;
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
