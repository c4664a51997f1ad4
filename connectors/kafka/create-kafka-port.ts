import { ConfigError } from '../../src/core/config-error.js';
import type { KafkaConnection } from './kafka-connection.js';
import type { KafkaPort } from './kafka-port.js';
import { createKafkajsPort } from './kafkajs-port.js';
import { createPlatformaticPort } from './platformatic-port.js';

/** The Kafka clients vbstream can run on; the first is the default. */
const KAFKA_CLIENTS = ['platformatic', 'kafkajs'] as const;

/**
 * The {@link KafkaPort} of the client `connection.client` names: `platformatic` (`@platformatic/kafka`,
 * the default) or `kafkajs`; `logLevel` is kafkajs's (the other client logs nothing).
 * An unknown client is a `ConfigError`.
 */
export function createKafkaPort(connection: KafkaConnection & { logLevel?: 'nothing' | 'error' | 'warn' | 'info' }): KafkaPort {
  const client = connection.client ?? KAFKA_CLIENTS[0];
  if (client === 'kafkajs') return createKafkajsPort(connection);
  if (client === 'platformatic') return createPlatformaticPort(connection);
  throw new ConfigError(`unknown Kafka client '${String(client)}' (one of ${KAFKA_CLIENTS.join(', ')})`, { field: 'client', value: client });
}
