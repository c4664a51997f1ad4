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
 * them per partition in one O(n) pass (order kept within each partition) and sends each partition's
 * records as requests of its own — the partitions at once, a partition's requests of about 512 KiB
 * ({@link produceSlices}, under the broker's `message.max.bytes`) one after the other: the client
 * retries a failed request whole, so a request spanning partitions would write again the records of
 * the partitions that succeeded.
 * An idempotent producer (or `maxInFlightRequests: 1`) sends one request at a time, in call order:
 * the client numbers a partition's sequences only when a send is acknowledged.
 */
export class PlatformaticProducer implements ProducerPort {
  private readonly client: Producer<Buffer, Buffer, Buffer, Buffer>;
  private readonly serial: boolean;
  private readonly roundRobin = new Map<string, number>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: ProducerOptions<Buffer, Buffer, Buffer, Buffer>, config: { idempotent?: boolean; maxInFlightRequests?: number; allowAutoTopicCreation?: boolean }) {
    this.client = new Producer({ ...options, idempotent: config.idempotent ?? false, autocreateTopics: config.allowAutoTopicCreation ?? true });
    this.serial = config.idempotent === true || config.maxInFlightRequests === 1;
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

  private sendNow(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number }): Promise<unknown> {
    return this.produce(record).catch((error: unknown) => { throw platformaticFailure(error); });
  }

  private async produce(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number }): Promise<unknown> {
    const { topic } = record;
    const partitions = (await this.client.metadata({ topics: [topic] })).topics.get(topic)?.partitionsCount ?? 1;
    const perPartition: PortOutgoingMessage[][] = Array.from({ length: partitions }, () => []);
    let next = this.roundRobin.get(topic) ?? 0;
    for (const message of record.messages) {
      let partition = message.partition;
      if (partition === undefined) partition = message.key === undefined || message.key === null ? next++ % partitions : defaultPartition(toBuffer(message.key), partitions);
      perPartition[partition].push(message);
    }
    this.roundRobin.set(topic, next % partitions);
    const acks = record.acks ?? -1;
    const sendPartition = async (partition: number, messages: PortOutgoingMessage[]): Promise<unknown[]> => {
      const acknowledged: unknown[] = [];
      for (const slice of produceSlices(messages)) {
        acknowledged.push(await this.client.send({
          acks,
          messages: slice.map((message): Message => ({
            topic, partition, key: message.key === undefined || message.key === null ? undefined : toBuffer(message.key), value: message.value === null ? undefined : toBuffer(message.value), headers: message.headers === undefined ? undefined : headersOf(message.headers),
          })),
        }));
      }
      return acknowledged;
    };
    return (await Promise.all(perPartition.map((messages, partition) => (messages.length === 0 ? [] : sendPartition(partition, messages))))).flat();
  }
}

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
