import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS, DeadLetterSink, type DeadLetter } from '../../../connectors/kafka/dead-letter-sink.js';
import type { PortOutgoingMessage, ProducerPort } from '../../../connectors/kafka/kafka-port.js';

function letter(offset: number, bytes = 10): DeadLetter {
  return { reason: 'bad-json', detail: 'x', topic: 'in', partition: 0, offset: String(offset), key: Buffer.from(`k${offset}`), value: Buffer.alloc(bytes, 97) };
}

/** A producer whose sends wait until released, recording what each carried. */
class SlowProducer implements ProducerPort {
  readonly sends: { topic: string; messages: PortOutgoingMessage[] }[] = [];
  private release: (() => void)[] = [];
  fail = false;
  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}
  send(record: { topic: string; messages: PortOutgoingMessage[] }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.release.push(() => {
        if (this.fail) reject(new Error('broker refused the batch'));
        else {
          this.sends.push(record);
          resolve(undefined);
        }
      });
    });
  }
  async releaseAll(): Promise<void> {
    while (this.release.length > 0) {
      this.release.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  }
}

describe('DeadLetterSink (issue 14, items 5 and 6)', () => {
  it('a letter added while a flush is sending is not dropped: the next flush sends it', async () => {
    const producer = new SlowProducer();
    const sink = new DeadLetterSink(producer);
    sink.add(letter(1));
    sink.add(letter(2));
    const flushing = sink.flush();
    sink.add(letter(3));
    await producer.releaseAll();
    await flushing;
    expect(sink.pendingCount).toBe(1);
    const second = sink.flush();
    await producer.releaseAll();
    await second;
    expect(producer.sends.flatMap((s) => s.messages.map((m) => m.headers?.[DEAD_LETTER_HEADERS.offset]))).toEqual(['1', '2', '3']);
    expect(sink.pendingCount).toBe(0);
  });

  it('cuts a value above maxValueBytes and says so, and sends in groups under maxSendBytes', async () => {
    const producer = new SlowProducer();
    const sink = new DeadLetterSink(producer, { maxValueBytes: 1000, maxSendBytes: 2500 });
    const big = letter(1, 2_000_000);
    sink.add(big);
    for (let i = 2; i <= 6; i++) sink.add(letter(i, 900));
    const flushing = sink.flush();
    await producer.releaseAll();
    await flushing;
    const messages = producer.sends.flatMap((s) => s.messages);
    expect(messages).toHaveLength(6);
    expect((messages[0].value as Buffer).length).toBe(1000);
    expect(messages[0].headers?.[DEAD_LETTER_HEADERS.truncated]).toBe('2000000');
    expect(messages[0].headers?.[DEAD_LETTER_HEADERS.sha256]).toMatch(/^[0-9a-f]{64}$/);
    expect(messages[1].headers?.[DEAD_LETTER_HEADERS.truncated]).toBeUndefined();
    expect(producer.sends.length).toBeGreaterThanOrEqual(3);
    for (const send of producer.sends) expect(send.messages.reduce((sum, m) => sum + (m.value as Buffer).length, 0)).toBeLessThanOrEqual(2500);
  });

  it('a failed send keeps every unsent letter queued, ahead of newer ones, and throws', async () => {
    const producer = new SlowProducer();
    const sink = new DeadLetterSink(producer, { maxSendBytes: 200 });
    for (let i = 1; i <= 4; i++) sink.add(letter(i, 100));
    producer.fail = true;
    const refused = expect(sink.flush()).rejects.toThrow('broker refused the batch');
    sink.add(letter(5));
    await producer.releaseAll();
    await refused;
    expect(sink.pendingCount).toBe(5);
    producer.fail = false;
    const retry = sink.flush();
    await producer.releaseAll();
    await retry;
    expect(producer.sends.flatMap((s) => s.messages.map((m) => m.headers?.[DEAD_LETTER_HEADERS.offset]))).toEqual(['1', '2', '3', '4', '5']);
  });
});
