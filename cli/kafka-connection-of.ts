import { readFileSync } from 'node:fs';
import type { KafkaConnection, KafkaTls } from '../connectors/kafka/kafka-connection.js';
import { ConfigError } from '../src/core/config-error.js';
import type { PipelineConfig } from './pipeline-config.js';

type KafkaSourceConfig = Extract<PipelineConfig['source'], { type: 'kafka' }>;

function pem(path: string | undefined, field: string): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read ${field}: ${(cause as Error).message}`, { field, value: path }, { cause });
  }
}

/**
 * The Kafka connection a pipeline's source declares: brokers, client id, client library, TLS (PEM
 * files read now) and SASL (the password from the config or from the environment variable it names). A file that
 * cannot be read or an unset variable is a `ConfigError` naming the key.
 */
export function kafkaConnectionOf(source: KafkaSourceConfig, env: NodeJS.ProcessEnv = process.env): KafkaConnection {
  let ssl: boolean | KafkaTls | undefined;
  if (typeof source.ssl === 'object') {
    ssl = {
      ca: pem(source.ssl.caFile, 'source.ssl.caFile'), cert: pem(source.ssl.certFile, 'source.ssl.certFile'), key: pem(source.ssl.keyFile, 'source.ssl.keyFile'),
      rejectUnauthorized: source.ssl.rejectUnauthorized,
    };
  } else ssl = source.ssl;
  let sasl: KafkaConnection['sasl'];
  if (source.sasl !== undefined) {
    const { mechanism, username, password, passwordEnv } = source.sasl;
    const secret = password ?? env[passwordEnv as string];
    if (secret === undefined || secret === '') throw new ConfigError(`the environment variable ${passwordEnv} (source.sasl.passwordEnv) is not set`, { field: 'source.sasl.passwordEnv', value: passwordEnv });
    sasl = { mechanism, username, password: secret };
  }
  return { brokers: source.brokers, clientId: source.clientId ?? `vbstream-run-${process.pid}`, ssl, sasl, client: source.client };
}
