import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchingWriter } from '../../../connectors/kafka/batching-writer.js';
import type { AdminPort, PortOutgoingMessage, ProducerPort } from '../../../connectors/kafka/kafka-port.js';
import { VbstreamError } from '../../../src/core/vbstream-error.js';

/** One send a {@link HeldProducer} holds until the test acknowledges or fails it. */
interface HeldSend {
  readonly producer: number;
  readonly topic: string;
  readonly keys: string[];
  ack(): void;
  fail(error: Error): void;
}

/** A producer port whose sends stay in flight until the test settles them; it records every send and the most in flight at once. */
class HeldProducer implements ProducerPort {
  inFlight = 0;
  mostInFlight = 0;

  constructor(readonly id: number, private readonly sends: HeldSend[]) {}

  async connect(): Promise<void> {}

  async disconnect(): Promise<void> {}

  send(record: { topic: string; messages: PortOutgoingMessage[] }): Promise<unknown> {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    return new Promise((resolve, reject) => {
      const settle = (error?: Error): void => {
        this.inFlight--;
        if (error === undefined) resolve(undefined);
        else reject(error);
      };
      this.sends.push({ producer: this.id, topic: record.topic, keys: record.messages.map((m) => String(m.key)), ack: () => settle(), fail: (error) => settle(error) });
    });
  }
}

const admin = { fetchTopicOffsets: async () => [] } as unknown as AdminPort;

/** A writer over `count` held producers, the sends they were given, and the outcome of every append by key. */
function pool(count: number): { writer: BatchingWriter; producers: HeldProducer[]; sends: HeldSend[]; outcomes: Map<string, 'ok' | Error>; append: (key: string) => void } {
  const sends: HeldSend[] = [];
  const producers = Array.from({ length: count }, (_, id) => new HeldProducer(id, sends));
  const writer = new BatchingWriter(producers, admin, { probeTopic: 'predictions' });
  const outcomes = new Map<string, 'ok' | Error>();
  const append = (key: string): void => {
    writer.append('predictions', 'prediction', [{ key, value: `{"predictionId":"${key}"}` }]).then(() => outcomes.set(key, 'ok'), (error: Error) => outcomes.set(key, error));
  };
  return { writer, producers, sends, outcomes, append };
}

/** Lets settled sends' callbacks run, then the sends the writer makes at the end of that turn of the event loop. */
const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
};

describe('BatchingWriter over a pool of producers', () => {
  it('keeps a send in flight on each producer at once, never two on one, and batches what arrives while all are busy', async () => {
    const { writer, producers, sends, append } = pool(2);
    append('a');
    await settle();
    append('b');
    await settle();
    expect(sends.map((s) => [s.producer, s.keys])).toEqual([[0, ['a']], [1, ['b']]]);
    append('c');
    append('d');
    await settle();
    expect(sends).toHaveLength(2); // both producers busy: c and d wait, together
    sends[1].ack();
    await settle();
    expect(sends.map((s) => [s.producer, s.keys])).toEqual([[0, ['a']], [1, ['b']], [1, ['c', 'd']]]);
    expect(producers.map((p) => p.mostInFlight)).toEqual([1, 1]);
    sends[0].ack();
    sends[2].ack();
    await writer.drain();
  });

  it('sends the appends of one turn of the event loop together, on one idle producer, at the end of the turn', async () => {
    const { writer, sends, append } = pool(2);
    append('a');
    append('b');
    append('c');
    expect(sends).toHaveLength(0);
    await settle();
    expect(sends.map((s) => [s.producer, s.keys])).toEqual([[0, ['a', 'b', 'c']]]);
    sends[0].ack();
    await writer.drain();
  });

  it('settles each append when the send holding it does, whichever is acknowledged first', async () => {
    const { sends, outcomes, append } = pool(2);
    append('a');
    await settle();
    append('b');
    await settle();
    sends[1].ack();
    await settle();
    expect(outcomes.get('b')).toBe('ok');
    expect(outcomes.has('a')).toBe(false);
    sends[0].ack();
    await settle();
    expect(outcomes.get('a')).toBe('ok');
  });

  it('fails exactly the appends a failed send carried, with a retriable io error naming the topic, and no other', async () => {
    const { sends, outcomes, append } = pool(2);
    append('a');
    await settle();
    append('b');
    await settle();
    append('c');
    await settle();
    sends[0].fail(Object.assign(new Error('broker down'), { retriable: true }));
    await settle();
    sends[1].ack();
    await settle();
    sends[2].ack();
    await settle();
    const failed = outcomes.get('a');
    expect(failed).toBeInstanceOf(VbstreamError);
    expect((failed as VbstreamError).message).toMatch(/^the prediction could not be written to predictions: broker down/);
    expect((failed as VbstreamError).retriable).toBe(true);
    expect(outcomes.get('b')).toBe('ok');
    expect(outcomes.get('c')).toBe('ok');
  });

  it('whatever the order of appends, acknowledgements and failures: every message in exactly one send, each append settled once by its own send, one send per producer at a time', async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.oneof(fc.constant({ op: 'append' as const }), fc.record({ op: fc.constant('settle' as const), pick: fc.nat(), fail: fc.boolean() })), { maxLength: 40 }),
      async (count, steps) => {
        const { writer, producers, sends, outcomes, append } = pool(count);
        const settled = new Set<HeldSend>();
        const failedKeys = new Set<string>();
        const settleOne = (pick: number, fail: boolean): void => {
          const open = sends.filter((s) => !settled.has(s));
          if (open.length === 0) return;
          const send = open[pick % open.length];
          settled.add(send);
          if (fail) {
            for (const key of send.keys) failedKeys.add(key);
            send.fail(new Error('refused'));
          } else send.ack();
        };
        let appended = 0;
        for (const step of steps) {
          if (step.op === 'append') append(`k${appended++}`);
          else settleOne(step.pick, step.fail);
          await settle();
        }
        while (sends.some((s) => !settled.has(s))) {
          settleOne(0, false);
          await settle();
        }
        await writer.drain();
        const keys = sends.flatMap((s) => s.keys);
        expect([...keys].sort()).toEqual(Array.from({ length: appended }, (_, k) => `k${k}`).sort());
        expect(outcomes.size).toBe(appended);
        for (const [key, outcome] of outcomes) expect(outcome === 'ok').toBe(!failedKeys.has(key));
        for (const producer of producers) expect(producer.mostInFlight).toBeLessThanOrEqual(1);
      },
    ), { numRuns: 200 });
  });
});
