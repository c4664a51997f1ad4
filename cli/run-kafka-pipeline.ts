import type { Writable } from 'node:stream';
import { createKafkaPort } from '../connectors/kafka/create-kafka-port.js';
import { KafkaSnapshotStore } from '../connectors/kafka/kafka-snapshot-store.js';
import { PartitionedLearner } from '../connectors/kafka/partitioned-learner.js';
import type { LearnerEvent } from '../connectors/kafka/learner-event.js';
import { reachBrokers } from '../connectors/kafka/reach-brokers.js';
import { decoderOf } from './decoder-of.js';
import { kafkaConnectionOf } from './kafka-connection-of.js';
import { getFamily } from '../src/registry.js';
import type { PipelineConfig } from './pipeline-config.js';
import type { PipelineMonitor } from './pipeline-monitor.js';
import type { PipelineResult } from './pipeline-result.js';

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** How long the snapshot store's clients get to close once the learner has stopped, ms (they may be retrying a broker that is down). */
const CLOSE_GRACE_MS = 5_000;

/** The one line a learner event is worth on the console, if any: outages, dead-letter alarms, a partition started over. */
function eventLine(event: LearnerEvent, topic: string): string | undefined {
  switch (event.type) {
    case 'brokers-unreachable': return `kafka: the brokers are unreachable (${event.what}: ${event.reason}); not ready, retrying for up to ${count(event.limitMs / 1000)} s (source.maxOutageMs)`;
    case 'brokers-reachable': return `kafka: the brokers are reachable again after ${(event.outageMs / 1000).toFixed(1)} s; learning resumes where it stood`;
    case 'dead-letters-alarm': return `dead letters: ${topic} ${event.detail}; not ready until the share falls under source.deadLetterAlarm.share`;
    case 'dead-letters-normal': return `dead letters: ${topic} ${event.detail}; back under the alarm`;
    case 'starting-over': return `kafka: partition ${event.partition} has no snapshot of this model (the group had committed offset ${count(event.committed)}); learning it from offset ${count(event.nextOffset)} (source.missingSnapshot: from-earliest)`;
    default: return undefined;
  }
}

/**
 * The Kafka branch of `vbstream run`: a `PartitionedLearner` over `source.topic` in consumer group
 * `source.groupId` — one model per assigned partition (in a worker thread unless `worker` is
 * false), `minibatch.size` records per learn call, `queue.capacity` records queued per partition
 * before it is paused, snapshots every `snapshots.everyRecords` (default 10,000) records per
 * partition to the compacted topic `snapshots.topic`, offsets committed once a snapshot is durable,
 * bad records to `<topic>.dlq` — with its metrics and readiness on the run's monitor. Runs until
 * `stop` (or, with `untilCaughtUp`, until every assigned partition has reached its end), then
 * snapshots, commits and leaves the group.
 */
export async function runKafkaPipeline(
  config: PipelineConfig & { readonly source: { readonly type: 'kafka' } },
  io: { out: Writable; err: Writable; onSource(stop: () => void): void },
  monitor: PipelineMonitor | undefined,
): Promise<PipelineResult> {
  const { source, model, snapshots } = config;
  const { out } = io;
  const dim = source.dim + (config.schema.intercept === true ? 1 : 0);
  getFamily(model.family).create(dim, model.options, { maxAbsInput: config.schema.maxAbsInput }); // a bad option value is refused before anything connects
  const decoder = decoderOf(source);
  const port = createKafkaPort({ ...kafkaConnectionOf(source), logLevel: 'nothing' });
  await reachBrokers(port, source.brokers);
  const snapshotTopic = snapshots.topic ?? `${source.topic}.snapshots`;
  const store = await KafkaSnapshotStore.open(port, { topic: snapshotTopic, partitions: snapshots.topicPartitions, config: snapshots.topicConfig, ...source.topics });
  const name = `${model.family}@${source.topic}`;
  if (config.schema.features !== undefined) monitor?.describeFeatures(config.schema.intercept === true ? ['intercept', ...config.schema.features] : config.schema.features);
  const learner = new PartitionedLearner(port, store, {
    topic: source.topic, groupId: source.groupId, model: name, family: model.family, familyOptions: model.options,
    schema: { dim, intercept: config.schema.intercept, features: config.schema.features, label: config.schema.label, weight: config.schema.weight, maxBytes: source.maxBytes, maxAbsInput: config.schema.maxAbsInput }, decoder,
    snapshotEvery: snapshots.everyRecords, snapshotEveryMs: snapshots.everyMs, sessionTimeoutMs: source.sessionTimeoutMs, maxBytesPerPartition: source.maxBytesPerPartition, chunkSize: config.minibatch.size,
    worker: config.worker, queueCapacity: config.queue.capacity, evaluate: true, metrics: monitor?.metrics, readiness: monitor?.readiness, topics: source.topics,
    missingSnapshot: source.missingSnapshot, maxOutageMs: source.maxOutageMs, shutdownTimeoutMs: source.shutdownTimeoutMs, deadLetterAlarm: source.deadLetterAlarm,
    onEvent: (event) => {
      const line = eventLine(event, source.topic);
      if (line !== undefined) io.err.write(`${line}\n`);
    },
  });
  out.write(`vbstream run: Kafka ${source.topic} (group ${source.groupId}, ${source.brokers.join(',')}, ${source.format === 'avro' ? `Avro via ${source.schemaRegistry?.url}` : 'JSON'}) → ${model.family} (d=${dim}${config.schema.intercept === true ? ', the intercept first' : ''}) per partition ${config.worker ? 'in worker threads' : 'in-process'}; ` +
    `chunks of ${config.minibatch.size}; snapshots every ${count(snapshots.everyRecords ?? 10_000)} records per partition${snapshots.everyMs === undefined ? '' : ` and every ${snapshots.everyMs / 1000} s`} and at its end to ${snapshotTopic} (key ${name}/<partition>); bad records to ${source.topic}.dlq\n`);
  out.write('    records   records/s        lag   queue  paused  dead letters\n');
  const deadLetters = (): number => Object.values(learner.deadLettersByReason() ?? {}).reduce((a, b) => a + b, 0);
  let stopRequested: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => { stopRequested = resolve; });
  io.onSource(() => stopRequested());
  let fatal: Error | undefined;
  const started = performance.now();
  let last = { at: started, applied: 0 };
  const line = (): void => {
    const now = performance.now();
    const applied = learner.recordsApplied;
    let lag = 0;
    let paused = 0;
    for (const [p, status] of learner.partitions()) {
      lag += status.lag;
      if (learner.kafkaSource?.isPaused(p)) paused++;
    }
    const rate = ((applied - last.applied) / Math.max(now - last.at, 1)) * 1000;
    last = { at: now, applied };
    out.write(`${count(applied).padStart(11)} ${count(rate).padStart(11)} ${count(lag).padStart(10)} ${String(learner.queueDepth).padStart(7)} ${String(paused).padStart(7)} ${String(deadLetters()).padStart(13)}\n`);
  };
  const admin = port.admin();
  /** Whether this process owns every partition and has learned each up to the topic's current end. */
  const caughtUp = async (): Promise<boolean> => {
    const ends = await admin.fetchTopicOffsets(source.topic);
    const owned = learner.partitions();
    return ends.every(({ partition, high }) => {
      const status = owned.get(partition);
      return status !== undefined && status.queued === 0 && (status.nextOffset ?? 0) >= Number(high);
    });
  };
  const ticker = setInterval(() => {
    line();
    if (source.untilCaughtUp) void caughtUp().then((done) => { if (done) stopRequested(); }, () => undefined);
  }, config.progress.everyMs);
  try {
    if (source.untilCaughtUp) await admin.connect();
    const starting = learner.start((error) => {
      fatal = error;
      stopRequested();
    });
    await Promise.race([starting, stopped]); // a stop while the brokers are down ends the start too
    await stopped;
  } finally {
    clearInterval(ticker);
    out.write(`stopping: learning the ${count(learner.queueDepth)} queued records, then a final snapshot and commit per partition (at most ${source.shutdownTimeoutMs / 1000} s)\n`);
    await learner.stop().catch((error: unknown) => { fatal ??= error instanceof Error ? error : new Error(String(error)); });
    const closing = Promise.allSettled([store.close(), source.untilCaughtUp ? admin.disconnect() : undefined]);
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
  }
  if (fatal !== undefined) throw fatal;
  line();
  const seconds = (performance.now() - started) / 1000;
  const byReason = Object.entries(learner.deadLettersByReason() ?? {}).filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a).map(([reason, n]) => `${reason} ${count(n)}`);
  out.write(`\ndone: ${count(learner.recordsApplied)} records learned in ${seconds.toFixed(1)} s (${count(learner.recordsApplied / Math.max(seconds, 1e-3))}/s), ${count(deadLetters())} dead letters${byReason.length === 0 ? '' : ` (${byReason.join(', ')})`}; snapshots in ${snapshotTopic}\n`);
  return { recordsSeen: learner.recordsApplied, badRecords: deadLetters(), snapshot: snapshotTopic };
}
