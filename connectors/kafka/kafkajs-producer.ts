import type { Producer } from 'kafkajs';
import type { PortOutgoingMessage, ProducerPort } from './kafka-port.js';
import { produceSlices } from './produce-slices.js';

/**
 * {@link ProducerPort} on a kafkajs producer that cuts a large send into consecutive slices of at
 * most {@link KafkajsProducer.SLICE} records and about 512 KiB ({@link produceSlices}): kafkajs's
 * grouping then costs O(n·slice) instead of O(n²) (20,000 records to one partition: 200M element
 * copies in one send), and no request exceeds the broker's `message.max.bytes`. The slices go one
 * after the other: kafkajs sends concurrent requests in no fixed order (a real-broker test saw a
 * partition's records reordered), and a send keeps its records' order within each partition. The
 * send resolves to the slices' record metadata, in order, and rejects at the first slice that fails
 * (the slices before it are written, as some partitions of a failed kafkajs send spanning brokers may be).
 */
export class KafkajsProducer implements ProducerPort {
  /** Most records per kafkajs send: its per-partition grouping copies the partition's list for every record (O(n²) in a send's records). */
  static readonly SLICE = 1_000;

  constructor(private readonly producer: Pick<Producer, 'connect' | 'disconnect' | 'send'>) {}

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  async send(record: { topic: string; messages: PortOutgoingMessage[]; acks?: number; timeout?: number }): Promise<unknown> {
    const slices = produceSlices(record.messages, KafkajsProducer.SLICE);
    if (slices.length <= 1) return this.producer.send(record);
    const metadata: unknown[] = [];
    for (const messages of slices) metadata.push(...await this.producer.send({ ...record, messages }));
    return metadata;
  }
}
