import { z } from 'zod';
import { ConfigError } from '../src/core/config-error.js';
import { families } from '../src/registry.js';

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
  /** Stop once every assigned partition has caught up with its end (a bounded run). */
  untilCaughtUp: z.boolean().default(false),
});

const metrics = z.strictObject({
  /** Port on 127.0.0.1 for /metrics, /healthz and /readyz; 0 picks a free one. */
  port: z.int().min(0).max(65_535).default(9464),
  /** Value of the `pipeline` label on every series. */
  pipeline: z.string().min(1).default('default'),
});

const pipelineSchema = z.strictObject({
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
  }).default({ label: 'y' }),
  model: z.strictObject({
    family: z.string().refine((id) => families.has(id), { error: (issue) => `unknown model family ${JSON.stringify(issue.input)}; known: ${[...families.keys()].join(', ')}` }),
    options: z.record(z.string(), z.json()).optional(),
  }),
  minibatch: z.strictObject({ size: positiveInt().default(256), maxWaitMs: z.number().nonnegative().default(50) }).default({ size: 256, maxWaitMs: 50 }),
  worker: z.boolean().default(true),
  queue: z.strictObject({ capacity: positiveInt().min(2).default(20_000) }).default({ capacity: 20_000 }),
  snapshots: z.strictObject({
    dir: z.string().min(1).default('./snapshots'),
    everyRecords: positiveInt().optional(),
    everyMs: z.number().positive().optional(),
    keep: positiveInt().default(5),
    /** With a Kafka source: the compacted snapshot topic (default `<topic>.snapshots`), keyed `model/partition`. */
    topic: z.string().min(1).optional(),
  }).default({ dir: './snapshots', keep: 5 }),
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
  metrics: z.union([z.literal(false), metrics]).default({ port: 9464, pipeline: 'default' }),
}).superRefine((config, context) => {
  const stdinWithoutFeatures = config.source.type === 'stdin' && config.schema.features === undefined;
  if (stdinWithoutFeatures) context.addIssue({ code: 'custom', path: ['schema', 'features'], message: 'reading from stdin needs schema.features (the header cannot be read ahead)' });
  const { source } = config;
  const kafka = source.type === 'kafka';
  if (source.type === 'kafka' && config.schema.features !== undefined && config.schema.features.length !== source.dim) {
    context.addIssue({ code: 'custom', path: ['schema', 'features'], message: `names ${config.schema.features.length} features but source.dim is ${source.dim}` });
  }
  if (!kafka && config.snapshots.topic !== undefined) context.addIssue({ code: 'custom', path: ['snapshots', 'topic'], message: 'a snapshot topic needs a Kafka source (other sources snapshot to snapshots.dir)' });
  if (kafka && (config.sinks.predictions.type !== 'summary' || config.sinks.badRecords.type !== 'stderr')) {
    context.addIssue({ code: 'custom', path: ['sinks'], message: 'a Kafka source sends bad records to <topic>.dlq and has no prediction sink; leave sinks out' });
  }
});

/** A validated pipeline declaration (defaults filled in). See `examples/pipeline.json` and the README. */
export type PipelineConfig = z.infer<typeof pipelineSchema>;

/**
 * Validates a parsed pipeline declaration; every problem is listed in one {@link ConfigError},
 * each with its path in the file (`source.path: ...`, `minibatch.size: ...`).
 */
export function parsePipelineConfig(value: unknown, source: string): PipelineConfig {
  const result = pipelineSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.length === 0 ? '(top level)' : issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`invalid pipeline configuration (${source}):\n${problems.join('\n')}`);
}
