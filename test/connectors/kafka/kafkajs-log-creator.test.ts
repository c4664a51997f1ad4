import { logLevel } from 'kafkajs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kafkajsLogCreator } from '../../../connectors/kafka/kafkajs-log-creator.js';

describe('kafkajsLogCreator', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes errors worth reading as JSON lines and leaves out the transient ones kafkajs retries by itself', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { written.push(String(chunk)); return true; });
    const log = kafkajsLogCreator(logLevel.ERROR);
    log({ namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { message: 'Response GroupCoordinator', timestamp: 't', error: 'The group coordinator is not available' } });
    log({ namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { message: 'Response InitProducerId', timestamp: 't', error: "The coordinator is loading and hence can't process requests for this group" } });
    log({ namespace: 'Connection', level: logLevel.ERROR, label: 'ERROR', log: { message: 'Connection error', timestamp: 't', error: 'SASL SCRAM SHA512 authentication failed' } });
    log({ namespace: 'Consumer', level: logLevel.WARN, label: 'WARN', log: { message: 'Rebalancing', timestamp: 't' } });
    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      { level: 'ERROR', timestamp: 't', logger: 'kafkajs', message: 'Connection error', error: 'SASL SCRAM SHA512 authentication failed' },
      { level: 'WARN', timestamp: 't', logger: 'kafkajs', message: 'Rebalancing' },
    ]);
  });

  it('leaves out a consumer crash on a transient error and the restart that follows it, but keeps a real crash and its restart', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { written.push(String(chunk)); return true; });
    const log = kafkajsLogCreator(logLevel.ERROR);
    const entry = (message: string) => ({ namespace: 'Consumer', level: logLevel.ERROR, label: 'ERROR', log: { message, timestamp: 't', groupId: 'g' } });
    log(entry("Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group"));
    log(entry('Restarting the consumer in 300ms'));
    log(entry('Crash: KafkaJSNonRetriableError: SASL authentication failed'));
    log(entry('Restarting the consumer in 300ms'));
    expect(written.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(['Crash: KafkaJSNonRetriableError: SASL authentication failed', 'Restarting the consumer in 300ms']);
  });
});
