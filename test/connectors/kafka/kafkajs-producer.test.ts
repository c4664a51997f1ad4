import { describe, expect, it } from 'vitest';
import { KafkajsProducer } from '../../../connectors/kafka/kafkajs-producer.js';
import type { PortOutgoingMessage } from '../../../connectors/kafka/kafka-port.js';

type Send = { topic: string; messages: PortOutgoingMessage[]; acks?: number };

/** A kafkajs producer in memory: records each send, answers one metadata entry per record once `release` is called for it. */
function fakeProducer(fail?: number) {
  const sends: Send[] = [];
  const pending: (() => void)[] = [];
  const producer = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    send: (record: Send) => {
      const index = sends.push(record) - 1;
      return new Promise<{ value: string }[]>((resolve, reject) => {
        pending[index] = () => (index === fail ? reject(new Error(`slice ${index} failed`)) : resolve(record.messages.map((m) => ({ value: String(m.value) }))));
      });
    },
  };
  return { producer: producer as never, sends, release: (index: number) => pending[index]() };
}

const messages = (n: number): PortOutgoingMessage[] => Array.from({ length: n }, (_, i) => ({ key: `k${i % 3}`, value: String(i) }));

describe('KafkajsProducer', () => {
  it('passes a send of at most one slice to kafkajs as it is', async () => {
    const fake = fakeProducer();
    const record = { topic: 't', acks: -1, messages: messages(KafkajsProducer.SLICE) };
    const sent = new KafkajsProducer(fake.producer).send(record);
    expect(fake.sends).toEqual([record]);
    fake.release(0);
    expect(await sent).toHaveLength(KafkajsProducer.SLICE);
  });

  it('cuts a large send into consecutive slices sent one after the other (order kept), metadata in order', async () => {
    const fake = fakeProducer();
    const all = messages(2 * KafkajsProducer.SLICE + 7);
    const sent = new KafkajsProducer(fake.producer).send({ topic: 't', acks: -1, messages: all });
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(fake.sends).toHaveLength(i + 1); // the next slice waits for the previous one's acknowledgement
      fake.release(i);
    }
    expect(fake.sends.map((s) => s.messages.length)).toEqual([KafkajsProducer.SLICE, KafkajsProducer.SLICE, 7]);
    expect(fake.sends.flatMap((s) => s.messages)).toEqual(all);
    expect(fake.sends.every((s) => s.topic === 't' && s.acks === -1)).toBe(true);
    expect(((await sent) as { value: string }[]).map((m) => m.value)).toEqual(all.map((m) => m.value));
  });

  it('rejects at the first slice that fails and sends nothing after it', async () => {
    const fake = fakeProducer(0);
    const sent = new KafkajsProducer(fake.producer).send({ topic: 't', messages: messages(2 * KafkajsProducer.SLICE) });
    fake.release(0);
    await expect(sent).rejects.toThrow('slice 0 failed');
    expect(fake.sends).toHaveLength(1);
  });
});
