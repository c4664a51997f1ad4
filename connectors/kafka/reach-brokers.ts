import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { KafkaPort } from './kafka-port.js';

/**
 * Connects an admin client to check that the brokers answer, within `timeoutMs`; a cluster that
 * does not is a one-line, retriable `VbstreamError` naming the brokers, the cause and what to check
 * — instead of the client's own minute of retries and a stack. Leaves nothing connected.
 */
export async function reachBrokers(port: KafkaPort, brokers: readonly string[], timeoutMs = 15_000): Promise<void> {
  const admin = port.admin();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      admin.connect().then(() => admin.listTopics()),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs); }),
    ]);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new VbstreamError('io', `cannot reach Kafka at ${brokers.join(',')} (${reason}): check the broker addresses (source.brokers, --brokers) and that the brokers are running and reachable from here`, { field: 'brokers', value: brokers.join(',') }, true, { cause });
  } finally {
    clearTimeout(timer);
    await admin.disconnect().catch(() => undefined);
  }
}
