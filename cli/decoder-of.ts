import { readFileSync } from 'node:fs';
import { AvroRecordDecoder } from '../connectors/kafka/avro-record-decoder.js';
import { SchemaRegistryClient } from '../connectors/kafka/schema-registry-client.js';
import type { DecoderFactory } from '../connectors/kafka/value-decoder.js';
import { ConfigError } from '../src/core/config-error.js';
import type { PipelineConfig } from './pipeline-config.js';

type KafkaSourceConfig = Extract<PipelineConfig['source'], { type: 'kafka' }>;

/** The value decoder a Kafka source declares: JSON (undefined: the learner's default) or Avro through its schema registry. */
export function decoderOf(source: KafkaSourceConfig, env: NodeJS.ProcessEnv = process.env): DecoderFactory | undefined {
  if (source.format !== 'avro') return undefined;
  const registry = source.schemaRegistry;
  if (registry === undefined) throw new ConfigError('format "avro" needs schemaRegistry.url', { field: 'source.schemaRegistry' });
  const password = registry.passwordEnv === undefined ? undefined : env[registry.passwordEnv];
  if (registry.passwordEnv !== undefined && (password === undefined || password === '')) {
    throw new ConfigError(`the environment variable ${registry.passwordEnv} (source.schemaRegistry.passwordEnv) is not set`, { field: 'source.schemaRegistry.passwordEnv', value: registry.passwordEnv });
  }
  let readerSchema: string | undefined;
  if (registry.readerSchemaFile !== undefined) {
    try {
      readerSchema = readFileSync(registry.readerSchemaFile, 'utf8');
    } catch (cause) {
      throw new ConfigError(`cannot read source.schemaRegistry.readerSchemaFile: ${(cause as Error).message}`, { field: 'source.schemaRegistry.readerSchemaFile', value: registry.readerSchemaFile }, { cause });
    }
  }
  const client = new SchemaRegistryClient({ url: registry.url, username: registry.username, password });
  return AvroRecordDecoder.factory({ registry: client, readerSchema });
}
