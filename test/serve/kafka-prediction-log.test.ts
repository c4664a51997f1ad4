import { describe, expect, it } from 'vitest';
import type { AdminPort, KafkaPort, PortOutgoingMessage, ProducerPort } from '../../connectors/kafka/kafka-port.js';
import { KafkaPredictionLog } from '../../serve/kafka-prediction-log.js';
import type { LoggedPrediction } from '../../serve/logged-prediction.js';
import { ConfigError } from '../../src/core/config-error.js';

/** A port whose topics exist and whose producers hold every send until the test acknowledges it; it counts the producers made, connected and disconnected. */
class HeldPort implements KafkaPort {
  readonly sends: { producer: number; keys: string[]; ack: () => void }[] = [];
  made = 0;
  connected = 0;
  disconnected = 0;
  adminDisconnected = 0;

  /** `failConnect`: the producer (by creation order) whose connect fails. */
  constructor(private readonly failConnect?: number) {}

  producer(config?: { idempotent?: boolean; maxInFlightRequests?: number }): ProducerPort {
    expect(config).toMatchObject({ idempotent: true, maxInFlightRequests: 1 });
    const id = this.made++;
    return {
      connect: async () => {
        if (id === this.failConnect) throw new Error('broker unreachable');
        this.connected++;
      },
      disconnect: async () => { this.disconnected++; },
      send: ({ messages }: { messages: PortOutgoingMessage[] }) => new Promise((resolve) => this.sends.push({ producer: id, keys: messages.map((m) => String(m.key)), ack: () => resolve(undefined) })),
    };
  }

  admin(): AdminPort {
    return {
      connect: async () => undefined, disconnect: async () => { this.adminDisconnected++; }, listTopics: async () => ['predictions'],
    } as unknown as AdminPort;
  }

  consumer(): never {
    throw new Error('no consumer here');
  }
}

const prediction = (predictionId: string): LoggedPrediction => ({
  predictionId, x: [1, 0.5], version: 'v1', mean: 0.6, variance: 0.24, interval: [0.4, 0.8], level: 0.9, predictedAt: 0, instance: 'test', family: 'adf-logit', dim: 2,
});

/** Lets settled sends' callbacks run, then the sends the log makes at the end of that turn of the event loop. */
const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
};

describe('KafkaPredictionLog', () => {
  it(`writes through ${KafkaPredictionLog.PRODUCERS} idempotent producers by default: a prediction logged while a send is in flight goes out at once on another, and each log resolves with its own send`, async () => {
    const port = new HeldPort();
    const log = await KafkaPredictionLog.start(port, { predictionsTopic: 'predictions' });
    expect(KafkaPredictionLog.PRODUCERS).toBeGreaterThan(1);
    expect([port.made, port.connected]).toEqual([KafkaPredictionLog.PRODUCERS, KafkaPredictionLog.PRODUCERS]);
    const resolved: string[] = [];
    void log.log([prediction('a')]).then(() => resolved.push('a'));
    await settle();
    void log.log([prediction('b')]).then(() => resolved.push('b'));
    await settle();
    expect(port.sends.map((s) => [s.producer, s.keys])).toEqual([[0, ['a']], [1, ['b']]]);
    port.sends[1].ack();
    await settle();
    expect(resolved).toEqual(['b']);
    port.sends[0].ack();
    await log.stop();
    expect(resolved).toEqual(['b', 'a']);
    expect(port.disconnected).toBe(KafkaPredictionLog.PRODUCERS);
  });

  it('takes the number of producers from its options and refuses one that is not a positive integer', async () => {
    const port = new HeldPort();
    const log = await KafkaPredictionLog.start(port, { predictionsTopic: 'predictions', producers: 3 });
    expect(port.made).toBe(3);
    await log.stop();
    await expect(KafkaPredictionLog.start(new HeldPort(), { predictionsTopic: 'predictions', producers: 0 })).rejects.toThrow(ConfigError);
    await expect(KafkaPredictionLog.start(new HeldPort(), { predictionsTopic: 'predictions', producers: 1.5 })).rejects.toThrow('producers must be a positive integer');
  });

  it('disconnects the producers it connected, and its admin, when a later producer cannot connect', async () => {
    const port = new HeldPort(2);
    await expect(KafkaPredictionLog.start(port, { predictionsTopic: 'predictions', producers: 3 })).rejects.toThrow('broker unreachable');
    expect([port.connected, port.disconnected, port.adminDisconnected]).toEqual([2, 2, 1]);
  });
});
