import { Kafka, logLevel } from 'kafkajs';
import type { KafkaPort } from './kafka-port.js';

/**
 * The {@link KafkaPort} backed by kafkajs 2.x. kafkajs is in maintenance mode (tulios/kafkajs#1603);
 * `@confluentinc/kafka-javascript`'s KafkaJS-compatible API fits the same port.
 */
export function createKafkajsPort(options: { brokers: string[]; clientId?: string; logLevel?: 'nothing' | 'error' | 'warn' | 'info' }): KafkaPort {
  const level = { nothing: logLevel.NOTHING, error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO }[options.logLevel ?? 'error'];
  const kafka = new Kafka({ clientId: options.clientId ?? 'vbstream', brokers: options.brokers, logLevel: level, retry: { retries: 8 } });
  const port: KafkaPort = kafka;
  return port;
}
