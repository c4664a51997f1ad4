import { z } from 'zod';
import { ConfigError } from '../src/core/config-error.js';
import { checkOptionKeys } from '../src/core/check-option-keys.js';
import { closestName } from '../src/core/closest-name.js';
import { findReservedKey } from '../src/core/find-reserved-key.js';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { families, getFamily } from '../src/registry.js';

const positiveInt = () => z.int().positive();

const syntheticSource = z.strictObject({
  type: z.literal('synthetic'),
  kind: z.enum(['logistic', 'linear', 'gp']).default('logistic'),
  dim: positiveInt().default(10),
  /** Records to emit; absent: until stopped. */
  records: positiveInt().optional(),
  seed: z.int().default(1),
  noise: z.number().positive().optional(),
  drift: z.strictObject({ every: positiveInt(), scale: z.number().positive() }).optional(),
  /** Records per second; absent: as fast as the pipeline takes them. */
  rate: z.number().positive().optional(),
});

const kafkaSource = z.strictObject({
  type: z.literal('kafka'),
  /** Bootstrap brokers, `host:port`. */
  brokers: z.array(z.string().min(1)).min(1),
  topic: z.string().min(1),
  groupId: z.string().min(1),
  /** Features per record: `{"x":[...],"y":...}` values, or `schema.features` named fields. */
  dim: positiveInt(),
  /** Largest accepted value, bytes (larger ones are dead-lettered as oversize). */
  maxBytes: positiveInt().optional(),
  sessionTimeoutMs: positiveInt().optional(),
  /** Most bytes per partition in one Fetch (default 262,144): smaller keeps the event loop responsive, larger needs fewer requests. */
  maxBytesPerPartition: positiveInt().optional(),
  /** Stop once every assigned partition has caught up with its end (a bounded run). */
  untilCaughtUp: z.boolean().default(false),
  /** A partition the group has committed an offset for but with no snapshot of this model (another family learned it): `fail` (default: stop with an error naming both) or `from-earliest` (learn this model from the partition's earliest offset). */
  missingSnapshot: z.enum(['fail', 'from-earliest']).default('fail'),
  /** Longest Kafka outage ridden out (not ready, writes and fetches retried with backoff) before the run stops with an error, ms; default 300,000. */
  maxOutageMs: positiveInt().default(300_000),
  /** Longest a stop (Ctrl-C, SIGTERM, untilCaughtUp) may take to write the final snapshots, commit and leave the group before the run exits 1 saying what was not saved, ms; default 30,000. */
  shutdownTimeoutMs: positiveInt().default(30_000),
  /** When a partition's dead letters raise an alarm (a log line, /readyz, the live page): `share` of a window of `window` records; default 0.1 of 1,000. */
  deadLetterAlarm: z.strictObject({ share: z.number().gt(0).lte(1).default(0.1), window: positiveInt().default(1_000) }).default({ share: 0.1, window: 1_000 }),
  /** Client id the brokers see; default `vbstream-run-<pid>`. */
  clientId: z.string().min(1).optional(),
  /** The Kafka client library: `platformatic` (`@platformatic/kafka`, the default) or `kafkajs`; one consumer group's members all use the same. */
  client: z.enum(['kafkajs', 'platformatic']).optional(),
  /** TLS: `true` (the system's CAs) or PEM files (relative to the config file) of the CA, and of a client certificate and key for mutual TLS. */
  ssl: z.union([z.boolean(), z.strictObject({
    caFile: z.string().min(1).optional(),
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
    rejectUnauthorized: z.boolean().default(true),
  })]).optional(),
  /** SASL: PLAIN or SCRAM-SHA-256/512, the password given or (better) read from an environment variable. */
  sasl: z.strictObject({
    mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
    username: z.string().min(1),
    password: z.string().min(1).optional(),
    passwordEnv: z.string().min(1).optional(),
  }).refine((sasl) => (sasl.password === undefined) !== (sasl.passwordEnv === undefined), { error: 'give exactly one of password and passwordEnv' }).optional(),
  /** How record values are encoded: JSON (default) or Avro in the schema-registry wire format (needs `schemaRegistry`). */
  format: z.enum(['json', 'avro']).default('json'),
  /** A Confluent-compatible Schema Registry (for `format: "avro"`): its base URL, optional basic auth, and the reader schema (a file of Avro JSON, relative to the config file) values are resolved to. */
  schemaRegistry: z.strictObject({
    url: z.url(),
    username: z.string().min(1).optional(),
    passwordEnv: z.string().min(1).optional(),
    readerSchemaFile: z.string().min(1).optional(),
  }).optional(),
  /** Durability of the topics vbstream creates (snapshots, dead letters): default min(3, brokers) replicas, min.insync.replicas one less. */
  topics: z.strictObject({ replicationFactor: positiveInt().optional(), minInsyncReplicas: positiveInt().optional() }).optional(),
}).refine((source) => source.format !== 'avro' || source.schemaRegistry !== undefined, { error: 'format "avro" needs schemaRegistry.url', path: ['schemaRegistry'] });

const metrics = z.strictObject({
  /** Port for /metrics, /healthz, /readyz and the live page /; 0 picks a free one. */
  port: z.int().min(0).max(65_535).default(9464),
  /** Interface to listen on: 127.0.0.1 (default, this host only) or 0.0.0.0 (all interfaces, to be scraped from another host). */
  host: z.string().min(1).default('127.0.0.1'),
  /** Value of the `pipeline` label on every series (and the live page's title). */
  pipeline: z.string().min(1).default('default'),
  /** Names the endpoint answers to in the `Host` header besides `host`, localhost and IP addresses (other names are refused 421, against DNS rebinding); `*` for any. */
  allowedHosts: z.array(z.string().min(1)).optional(),
});

/** The error of an unknown family id, with the closest known one. */
function unknownFamily(id: string): string {
  const near = closestName(id, [...families.keys()]);
  return `unknown model family ${JSON.stringify(id)}; ${near === undefined ? '' : `did you mean "${near}"? `}known: ${[...families.keys()].join(', ')}`;
}

/** The zod schema of a pipeline declaration (also shipped as JSON Schema: `schema/pipeline-config.schema.json`). */
export const pipelineSchema = z.strictObject({
  /** Where editors find this schema (ignored by vbstream), e.g. `node_modules/vbstream/schema/pipeline-config.schema.json`. */
  $schema: z.string().optional(),
  source: z.discriminatedUnion('type', [
    syntheticSource,
    kafkaSource,
    z.strictObject({ type: z.literal('csv'), path: z.string().min(1) }),
    z.strictObject({ type: z.literal('jsonl'), path: z.string().min(1) }),
    z.strictObject({ type: z.literal('stdin'), format: z.enum(['csv', 'jsonl']) }),
  ]),
  schema: z.strictObject({
    features: z.array(z.string().min(1)).min(1).optional(),
    label: z.string().min(1).default('y'),
    weight: z.string().min(1).optional(),
    /** Put a constant 1 before the features (the model's first weight, named `intercept`, is then the intercept); default false: the features as given. */
    intercept: z.boolean().optional(),
    /** Largest |value| of a feature, label or weight (default 1e12): a larger one is a bad record (Kafka: dead letter `out-of-range`), refused before the model learns anything. */
    maxAbsInput: z.number().min(1).optional(),
  }).default({ label: 'y' }),
  model: z.strictObject({
    family: z.string().refine((id) => families.has(id), { error: (issue) => unknownFamily(String(issue.input)) }),
    options: z.record(z.string(), z.json()).optional(),
  }),
  /** Records per learn call; `maxWaitMs` (file sources, default 50) flushes a partial minibatch after that long. */
  minibatch: z.strictObject({ size: positiveInt().default(256), maxWaitMs: z.number().nonnegative().optional() }).default({ size: 256 }),
  worker: z.boolean().default(true),
  queue: z.strictObject({ capacity: positiveInt().min(2).default(20_000) }).default({ capacity: 20_000 }),
  snapshots: z.strictObject({
    /** File sources: the directory (default `./snapshots`) and how many snapshots it keeps (default 5). */
    dir: z.string().min(1).optional(),
    everyRecords: positiveInt().optional(),
    everyMs: z.number().positive().optional(),
    keep: positiveInt().optional(),
    /** With a Kafka source: the compacted snapshot topic (default `<topic>.snapshots`), keyed `model/partition`. */
    topic: z.string().min(1).optional(),
    /** With a Kafka source: partitions of the snapshot topic when vbstream creates it (default 1). */
    topicPartitions: positiveInt().optional(),
    /** With a Kafka source: further configs of the snapshot topic when vbstream creates it (e.g. `min.compaction.lag.ms`, `segment.ms`). */
    topicConfig: z.record(z.string(), z.string()).optional(),
  }).default({}),
  sinks: z.strictObject({
    predictions: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('summary') }),
      z.strictObject({ type: z.literal('jsonl'), path: z.string().min(1) }),
    ]).default({ type: 'summary' }),
    badRecords: z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('stderr') }),
      z.strictObject({ type: z.literal('jsonl'), path: z.string().min(1) }),
    ]).default({ type: 'stderr' }),
  }).default({ predictions: { type: 'summary' }, badRecords: { type: 'stderr' } }),
  progress: z.strictObject({ everyMs: z.number().positive().default(1000) }).default({ everyMs: 1000 }),
  /** The monitoring endpoint, or `false` for none. */
  metrics: z.union([z.literal(false), metrics]).default({ port: 9464, host: '127.0.0.1', pipeline: 'default' }),
}).superRefine((config, context) => {
  const stdinWithoutFeatures = config.source.type === 'stdin' && config.schema.features === undefined;
  if (stdinWithoutFeatures) context.addIssue({ code: 'custom', path: ['schema', 'features'], message: 'reading from stdin needs schema.features (the header cannot be read ahead)' });
  const { source } = config;
  const kafka = source.type === 'kafka';
  if (source.type === 'synthetic' && config.schema.intercept === true) context.addIssue({ code: 'custom', path: ['schema', 'intercept'], message: 'a synthetic stream carries its own constant bias column (feature 1); leave intercept out' });
  if (source.type === 'kafka' && config.schema.features !== undefined && config.schema.features.length !== source.dim) {
    context.addIssue({ code: 'custom', path: ['schema', 'features'], message: `names ${config.schema.features.length} features but source.dim is ${source.dim}` });
  }
  for (const key of ['topic', 'topicPartitions', 'topicConfig'] as const) {
    if (!kafka && config.snapshots[key] !== undefined) context.addIssue({ code: 'custom', path: ['snapshots', key], message: 'a snapshot topic needs a Kafka source (other sources snapshot to snapshots.dir)' });
  }
  if (kafka && config.snapshots.dir !== undefined) context.addIssue({ code: 'custom', path: ['snapshots', 'dir'], message: 'a Kafka source snapshots to the compacted topic snapshots.topic (default <topic>.snapshots); snapshots.dir applies to file sources' });
  if (kafka && config.snapshots.keep !== undefined) context.addIssue({ code: 'custom', path: ['snapshots', 'keep'], message: 'the compacted snapshot topic keeps the latest snapshot of each partition; snapshots.keep applies to file sources' });
  if (kafka && config.minibatch.maxWaitMs !== undefined) context.addIssue({ code: 'custom', path: ['minibatch', 'maxWaitMs'], message: 'a Kafka source learns each fetched chunk of minibatch.size records at once; maxWaitMs applies to file sources' });
  if (families.has(config.model.family)) {
    try {
      checkOptionKeys(config.model.family, config.model.options, getFamily(config.model.family).options);
    } catch (error) {
      const field = error instanceof VbstreamError ? error.location.field : undefined;
      context.addIssue({ code: 'custom', path: ['model', 'options', ...(field === undefined || field === 'options' ? [] : field.split('.'))], message: error instanceof VbstreamError ? error.reason : String(error) });
    }
  }
  if (kafka && (config.sinks.predictions.type !== 'summary' || config.sinks.badRecords.type !== 'stderr')) {
    context.addIssue({ code: 'custom', path: ['sinks'], message: 'a Kafka source sends bad records to <topic>.dlq and has no prediction sink; leave sinks out' });
  }
});

/** A validated pipeline declaration (defaults filled in). See `examples/pipeline.json` and the README. */
export type PipelineConfig = z.infer<typeof pipelineSchema>;

/**
 * Validates a parsed pipeline declaration (a key `__proto__`, `constructor` or `prototype` anywhere
 * is refused, before the schema could drop it); every problem is listed in one {@link ConfigError},
 * each with its path in the file (`source.path: ...`, `minibatch.size: ...`).
 */
export function parsePipelineConfig(value: unknown, source: string): PipelineConfig {
  const reserved = findReservedKey(value);
  const result = pipelineSchema.safeParse(value);
  if (result.success && reserved === undefined) return result.data;
  const problems = result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.length === 0 ? '(top level)' : issue.path.join('.')}: ${issue.message}`);
  if (reserved !== undefined) problems.unshift(`  ${reserved}: "${reserved.slice(reserved.lastIndexOf('.') + 1)}" is not allowed as a key`);
  throw new ConfigError(`invalid pipeline configuration (${source}):\n${problems.join('\n')}`);
}
