import { ensureTopic, type KafkaPort } from 'vbstream/kafka';
import { SyntheticGenerator } from 'vbstream/files';

/** Writes `records` seeded logistic records (`{"x":[...],"y":0|1}`) round-robin to a new topic of `partitions` partitions. */
export async function produceRecords(port: KafkaPort, topic: string, options: { records: number; dim: number; partitions: number; seed: number }): Promise<void> {
  const admin = port.admin();
  await admin.connect();
  await ensureTopic(admin, topic, { partitions: options.partitions });
  await admin.disconnect();
  const producer = port.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const generator = new SyntheticGenerator({ kind: 'logistic', dim: options.dim, seed: options.seed });
  const x = new Float64Array(options.dim);
  for (let start = 0; start < options.records; start += 1_000) {
    const messages = [];
    for (let i = start; i < Math.min(options.records, start + 1_000); i++) {
      const y = generator.next(x);
      messages.push({ key: `r${i}`, partition: i % options.partitions, value: JSON.stringify({ x: Array.from(x), y }) });
    }
    await producer.send({ topic, messages, acks: -1 });
  }
  await producer.disconnect();
}
