import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminPort, KafkaPort } from '../../../connectors/kafka/kafka-port.js';
import { reachBrokers } from '../../../connectors/kafka/reach-brokers.js';
import { VbstreamError } from '../../../src/core/vbstream-error.js';

/** A port whose admin client never answers a connect (a broker address that swallows packets), and whether it was disconnected. */
function silentBrokers(): { port: KafkaPort; disconnected: () => boolean } {
  let disconnected = false;
  const admin = {
    connect: () => new Promise<void>(() => undefined),
    disconnect: async () => { disconnected = true; },
  } as unknown as AdminPort;
  return { port: { admin: () => admin } as unknown as KafkaPort, disconnected: () => disconnected };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reachBrokers (issue 14, item 14)', () => {
  it('gives up on brokers that never answer after its bound, with one retriable error naming them, instead of the client\'s minute of retries', async () => {
    vi.useFakeTimers();
    const { port, disconnected } = silentBrokers();
    let error: unknown;
    void reachBrokers(port, ['10.0.0.1:9092'], 15_000).then(() => { error = 'reached'; }, (thrown: unknown) => { error = thrown; });
    await vi.advanceTimersByTimeAsync(14_999);
    expect(error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(error).toBeInstanceOf(VbstreamError);
    expect((error as VbstreamError).retriable).toBe(true);
    expect((error as Error).message).toMatch(/^cannot reach Kafka at 10\.0\.0\.1:9092 \(no answer within 15 s\): check the broker addresses/);
    expect(disconnected()).toBe(true);
  });
});
