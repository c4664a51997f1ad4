import type { BaseOptions } from '@platformatic/kafka';
import type { KafkaConnection } from './kafka-connection.js';
import type { KafkaPort } from './kafka-port.js';
import { PlatformaticAdmin } from './platformatic-admin.js';
import { PlatformaticConsumer } from './platformatic-consumer.js';
import { PlatformaticProducer } from './platformatic-producer.js';

/**
 * The {@link KafkaPort} backed by `@platformatic/kafka` 1.x (pure TypeScript, maintained), with TLS
 * and SASL (PLAIN, SCRAM-SHA-256/512) as {@link KafkaConnection} describes them. Its consumers
 * use the `roundrobin` assignor, kafkajs's `RoundRobinAssigner`: the members of one group must all
 * use the same client.
 */
export function createPlatformaticPort(options: KafkaConnection): KafkaPort {
  const ssl = options.ssl;
  const base: BaseOptions = {
    clientId: options.clientId ?? 'vbstream', bootstrapBrokers: [...options.brokers], connectTimeout: options.connectionTimeoutMs ?? 3_000, retries: 8, retryDelay: 300,
    tls: ssl === undefined || ssl === false ? undefined : ssl === true ? {} : { ...ssl },
    sasl: options.sasl === undefined ? undefined : { mechanism: options.sasl.mechanism.toUpperCase() as 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512', username: options.sasl.username, password: options.sasl.password },
  };
  return {
    producer: (config = {}) => new PlatformaticProducer(base, config),
    consumer: (config) => {
      const sessionTimeout = config.sessionTimeout ?? 30_000;
      return new PlatformaticConsumer({
        ...base, groupId: config.groupId, sessionTimeout, rebalanceTimeout: Math.max(sessionTimeout, 60_000), heartbeatInterval: config.heartbeatInterval ?? 3_000,
        maxWaitTime: config.maxWaitTimeInMs ?? 5_000, autocreateTopics: config.allowAutoTopicCreation ?? true,
      }, config.maxBytesPerPartition ?? 1_048_576);
    },
    admin: () => new PlatformaticAdmin(base),
  };
}
