import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../src/core/config-error.js';
import { DEFAULT_PIPELINE } from './default-pipeline.js';
import { parsePipelineConfig, type PipelineConfig } from './pipeline-config.js';

/**
 * The pipeline declared in the JSON file at `path` (validated, defaults filled in, its paths made
 * relative to the file's directory), or the embedded default when `path` is undefined. A file that
 * cannot be read, is not JSON or does not validate is a `ConfigError` naming it.
 */
export async function loadPipelineConfig(path: string | undefined): Promise<PipelineConfig> {
  if (path === undefined) return parsePipelineConfig(DEFAULT_PIPELINE, 'embedded default');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`cannot read the pipeline configuration: ${(cause as Error).message}`, { source: path }, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`pipeline configuration is not valid JSON: ${(cause as Error).message}`, { source: path }, { cause });
  }
  return relativeTo(dirname(resolve(path)), parsePipelineConfig(value, path));
}

/** Paths in a config file are relative to the file's directory (as in tsconfig.json). */
function relativeTo(base: string, config: PipelineConfig): PipelineConfig {
  const at = (path: string) => resolve(base, path);
  const { source, snapshots, sinks } = config;
  const ssl = source.type === 'kafka' && typeof source.ssl === 'object' ? {
    ...source.ssl,
    caFile: source.ssl.caFile === undefined ? undefined : at(source.ssl.caFile),
    certFile: source.ssl.certFile === undefined ? undefined : at(source.ssl.certFile),
    keyFile: source.ssl.keyFile === undefined ? undefined : at(source.ssl.keyFile),
  } : undefined;
  const registry = source.type === 'kafka' && source.schemaRegistry?.readerSchemaFile !== undefined
    ? { ...source.schemaRegistry, readerSchemaFile: at(source.schemaRegistry.readerSchemaFile) }
    : undefined;
  return {
    ...config,
    source: source.type === 'csv' || source.type === 'jsonl'
      ? { ...source, path: at(source.path) }
      : source.type === 'kafka' ? { ...source, ssl: ssl ?? source.ssl, schemaRegistry: registry ?? source.schemaRegistry } : source,
    snapshots: snapshots.dir === undefined ? snapshots : { ...snapshots, dir: at(snapshots.dir) },
    sinks: {
      predictions: sinks.predictions.type === 'jsonl' ? { ...sinks.predictions, path: at(sinks.predictions.path) } : sinks.predictions,
      badRecords: sinks.badRecords.type === 'jsonl' ? { ...sinks.badRecords, path: at(sinks.badRecords.path) } : sinks.badRecords,
    },
  };
}
