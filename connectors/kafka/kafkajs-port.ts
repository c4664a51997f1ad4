import { Kafka, logLevel, type SASLOptions } from 'kafkajs';
import type { KafkaConnection } from './kafka-connection.js';
import { kafkajsLogCreator } from './kafkajs-log-creator.js';
import type { KafkaPort } from './kafka-port.js';
import { KafkajsProducer } from './kafkajs-producer.js';

/**
 * The {@link KafkaPort} backed by kafkajs 2.x, with TLS and SASL (PLAIN, SCRAM-SHA-256/512) as
 * {@link KafkaConnection} describes them. kafkajs is in maintenance mode (tulios/kafkajs#1603);
 * `@confluentinc/kafka-javascript`'s KafkaJS-compatible API fits the same port. Logs errors (not
 * the transient ones the client retries) as JSON lines on stderr by default. Producers cut large
 * sends into slices ({@link KafkajsProducer}).
 */
export function createKafkajsPort(options: KafkaConnection & { logLevel?: 'nothing' | 'error' | 'warn' | 'info' }): KafkaPort {
  const level = { nothing: logLevel.NOTHING, error: logLevel.ERROR, warn: logLevel.WARN, info: logLevel.INFO }[options.logLevel ?? 'error'];
  const ssl = options.ssl === undefined || typeof options.ssl === 'boolean' ? options.ssl : { ...options.ssl };
  const kafka = new Kafka({
    clientId: options.clientId ?? 'vbstream', brokers: [...options.brokers], logLevel: level, logCreator: kafkajsLogCreator, retry: { retries: 8 },
    connectionTimeout: options.connectionTimeoutMs ?? 3_000, ssl, sasl: options.sasl === undefined ? undefined : { ...options.sasl } as SASLOptions,
  });
  return {
    producer: (config = {}) => new KafkajsProducer(kafka.producer(config)),
    consumer: (config) => kafka.consumer(config),
    admin: () => kafka.admin(),
  };
}
