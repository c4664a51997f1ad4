import { parseArgs } from 'node:util';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import type { KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { reachBrokers } from '../../connectors/kafka/reach-brokers.js';
import { serveUntilSignal } from '../../connectors/kafka/serve-until-signal.js';
import { endpointUrl } from '../../monitoring/endpoint-url.js';
import { ConfigError } from '../../src/core/config-error.js';
import { KafkaPredictionLog } from '../../serve/kafka-prediction-log.js';
import type { PosteriorSource } from '../../serve/posterior-source.js';
import { ScoringService } from '../../serve/scoring-service.js';
import { SnapshotDirectorySource } from '../../serve/snapshot-directory-source.js';
import { SnapshotTopicSource } from '../../serve/snapshot-topic-source.js';
import { usageOf } from '../command-help.js';
import { kafkaConnectionOf } from '../kafka-connection-of.js';
import { listenOrExplain } from '../listen-or-explain.js';
import { loadPipelineConfig } from '../load-pipeline-config.js';
import { numberFlag } from '../number-flag.js';
import { openPipelineSource } from '../open-pipeline-source.js';

/** What the command serves: the posterior source, the family and features, and the Kafka connection (for a topic source or the predictions log). */
interface Served {
  readonly source: PosteriorSource;
  readonly family?: string;
  readonly dim?: number;
  readonly features?: readonly string[];
  readonly maxAbsInput?: number;
  readonly kafka?: { readonly port: KafkaPort; readonly brokers: readonly string[] };
  readonly title: string;
}

type Flags = { readonly [flag: string]: string | boolean | undefined };
const text = (flags: Flags, name: string): string | undefined => flags[name] as string | undefined;

/** The partition of `--partition p` or `--global`, exactly one of them. */
function partitionOf(flags: Flags): number | 'global' {
  if ((flags.partition === undefined) === (flags.global !== true)) throw new ConfigError(`a Kafka snapshot topic needs exactly one of --partition <p> (one partition's model) and --global (the merged posterior)\n${usageOf('serve')}`, { field: '--partition' });
  return flags.global === true ? 'global' : numberFlag('--partition', text(flags, 'partition'), 0);
}

/** The posterior source, family, features and Kafka connection of `--config` (a `vbstream run` pipeline) or of the explicit flags. */
async function servedOf(flags: Flags, pollMs: number): Promise<Served> {
  const explicit = ['snapshot-dir', 'snapshot-topic', 'model', 'family', 'dim'].filter((flag) => flags[flag] !== undefined);
  const kafkaOf = (brokers: readonly string[], connection: KafkaConnection = { brokers: [...brokers] }): Served['kafka'] => ({ port: createKafkaPort({ ...connection, clientId: `vbstream-serve-${process.pid}`, logLevel: 'nothing' }), brokers });
  const brokerFlag = text(flags, 'brokers')?.split(',');
  const client = text(flags, 'kafka-client') as KafkaConnection['client'];
  const configPath = text(flags, 'config');
  if (configPath !== undefined) {
    if (explicit.length > 0) throw new ConfigError(`--config takes the snapshot location, family and features from the pipeline; --${explicit[0]} contradicts it`, { field: `--${explicit[0]}` });
    const config = await loadPipelineConfig(configPath);
    const family = config.model.family;
    const maxAbsInput = config.schema.maxAbsInput;
    const { source } = config;
    // A pipeline with schema.intercept learned a constant 1 before its features: it is served as the first feature, named intercept.
    const intercept = config.schema.intercept === true ? ['intercept'] : [];
    if (source.type === 'kafka') {
      const connection = kafkaConnectionOf(source);
      const kafka = kafkaOf(brokerFlag ?? source.brokers, { ...connection, brokers: [...(brokerFlag ?? source.brokers)], client: client ?? connection.client });
      const topicSource = new SnapshotTopicSource(kafka!.port, { topic: config.snapshots.topic ?? `${source.topic}.snapshots`, model: `${family}@${source.topic}`, partition: partitionOf(flags) });
      return { source: topicSource, family, dim: source.dim + intercept.length, features: config.schema.features && [...intercept, ...config.schema.features], maxAbsInput, kafka, title: config.metrics === false ? 'serve' : config.metrics.pipeline };
    }
    if (flags.partition !== undefined || flags.global === true) throw new ConfigError('--partition and --global pick a key of a Kafka snapshot topic; this pipeline snapshots to a directory', { field: flags.global === true ? '--global' : '--partition' });
    const opened = await openPipelineSource({ ...config, source }, () => 0, { next: () => undefined });
    opened.source.stop();
    const features = [...intercept, ...opened.source.features];
    return {
      source: new SnapshotDirectorySource(config.snapshots.dir ?? './snapshots', { pollMs }), family, dim: features.length, features, maxAbsInput,
      kafka: brokerFlag === undefined ? undefined : kafkaOf(brokerFlag, { brokers: brokerFlag, client }), title: config.metrics === false ? 'serve' : config.metrics.pipeline,
    };
  }
  const features = text(flags, 'features')?.split(',');
  const family = text(flags, 'family');
  const dim = flags.dim === undefined ? features?.length : numberFlag('--dim', text(flags, 'dim'), 0, { min: 1 });
  const maxAbsInput = flags['max-abs-input'] === undefined ? undefined : numberFlag('--max-abs-input', text(flags, 'max-abs-input'), 0, { min: 1, integer: false });
  const dir = text(flags, 'snapshot-dir');
  const topic = text(flags, 'snapshot-topic');
  const kafka = brokerFlag === undefined ? undefined : kafkaOf(brokerFlag, { brokers: brokerFlag, client });
  if ((dir === undefined) === (topic === undefined)) throw new ConfigError(`give --config, or exactly one of --snapshot-dir and --snapshot-topic\n${usageOf('serve')}`, { field: '--snapshot-dir' });
  if (dir !== undefined) {
    if (flags.partition !== undefined || flags.global === true || flags.model !== undefined) throw new ConfigError('--partition, --global and --model pick a key of a Kafka snapshot topic, not of --snapshot-dir', { field: '--snapshot-dir' });
    return { source: new SnapshotDirectorySource(dir, { pollMs }), family, dim, features, maxAbsInput, kafka, title: 'serve' };
  }
  const model = text(flags, 'model');
  if (kafka === undefined || model === undefined) throw new ConfigError(`--snapshot-topic needs --brokers and --model (vbstream run names its models <family>@<topic>)\n${usageOf('serve')}`, { field: kafka === undefined ? '--brokers' : '--model' });
  return { source: new SnapshotTopicSource(kafka.port, { topic: topic!, model, partition: partitionOf(flags) }), family, dim, features, maxAbsInput, kafka, title: model };
}

/**
 * `vbstream serve`, the scoring service: a `ScoringService` on `--host:--port` (POST /predict,
 * POST /outcome, GET /healthz, /readyz, /metrics and the live page) over the posteriors of a
 * `vbstream run` pipeline (`--config`: its snapshot directory, or with a Kafka source its snapshot
 * topic, `--partition p` or `--global`) or of `--snapshot-dir` / `--snapshot-topic`. With
 * `--predictions-topic` every answer is logged to Kafka before it is returned, with
 * `--outcomes-topic` clients post outcomes. Prints `{"type":"listening",…}` once it listens and
 * `{"type":"posterior",…}` whenever it swaps a posterior in (stdout), `{"type":"refused",…}` for a
 * snapshot it refuses (stderr), as JSON lines. SIGTERM/SIGINT stop it as `bandit:decide` stops.
 */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      config: { type: 'string' }, partition: { type: 'string' }, global: { type: 'boolean' },
      'snapshot-dir': { type: 'string' }, 'poll-ms': { type: 'string' }, brokers: { type: 'string' }, 'kafka-client': { type: 'string' }, 'snapshot-topic': { type: 'string' }, model: { type: 'string' },
      family: { type: 'string' }, dim: { type: 'string' }, features: { type: 'string' }, 'max-abs-input': { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' }, level: { type: 'string' }, 'max-rows': { type: 'string' }, 'max-body-bytes': { type: 'string' },
      'predictions-topic': { type: 'string' }, 'outcomes-topic': { type: 'string' }, partitions: { type: 'string' }, 'log-producers': { type: 'string' }, 'instance-id': { type: 'string' },
      'request-timeout-ms': { type: 'string' }, 'allowed-hosts': { type: 'string' }, 'shutdown-timeout-ms': { type: 'string' },
    },
  });
  const { host } = values;
  const httpPort = numberFlag('--port', values.port, 8080);
  if (httpPort > 65_535) throw new ConfigError('--port must be an integer from 0 (a free port) to 65535', { field: '--port', value: values.port });
  const level = numberFlag('--level', values.level, 0.9, { min: 0, integer: false });
  if (!(level > 0 && level < 1)) throw new ConfigError('--level must be between 0 and 1 (exclusive)', { field: '--level', value: values.level });
  const maxRows = numberFlag('--max-rows', values['max-rows'], 1_000, { min: 1 });
  const maxBodyBytes = numberFlag('--max-body-bytes', values['max-body-bytes'], 1_048_576, { min: 1 });
  const requestTimeoutMs = values['request-timeout-ms'] === undefined ? undefined : numberFlag('--request-timeout-ms', values['request-timeout-ms'], 0, { min: 1 });
  const shutdownTimeoutMs = values['shutdown-timeout-ms'] === undefined ? undefined : numberFlag('--shutdown-timeout-ms', values['shutdown-timeout-ms'], 0, { min: 1 });
  const partitions = numberFlag('--partitions', values.partitions, 1, { min: 1 });
  const producers = numberFlag('--log-producers', values['log-producers'], KafkaPredictionLog.PRODUCERS, { min: 1 });
  const pollMs = numberFlag('--poll-ms', values['poll-ms'], 500, { min: 1 });
  const instanceId = values['instance-id'];
  if (instanceId !== undefined && !/^[A-Za-z0-9_.]+$/.test(instanceId)) throw new ConfigError('--instance-id must be letters, digits, _ or . (prediction ids are <instance>-<n>)', { field: '--instance-id', value: instanceId });
  const predictionsTopic = values['predictions-topic'];
  const outcomesTopic = values['outcomes-topic'];
  if (outcomesTopic !== undefined && predictionsTopic === undefined) throw new ConfigError('--outcomes-topic needs --predictions-topic (an outcome joins a logged prediction)', { field: '--outcomes-topic' });

  const served = await servedOf(values, pollMs);
  const { kafka } = served;
  if (predictionsTopic !== undefined && kafka === undefined) throw new ConfigError('--predictions-topic needs --brokers (or a --config with a Kafka source)', { field: '--brokers' });
  if (kafka !== undefined) await reachBrokers(kafka.port, [...kafka.brokers]);
  let scoring: ScoringService | undefined;
  const service = {
    start: async (onFatal: (error: Error) => void): Promise<void> => {
      const log = predictionsTopic === undefined ? undefined : await KafkaPredictionLog.start(kafka!.port, { predictionsTopic, outcomesTopic, partitions, producers, unresponsiveAfterMs: requestTimeoutMs });
      scoring = new ScoringService({
        source: served.source, family: served.family, dim: served.dim, features: served.features, maxAbsInput: served.maxAbsInput, level, maxRows, log, instanceId, title: served.title,
        host, port: httpPort, maxBodyBytes, requestTimeoutMs, allowedHosts: values['allowed-hosts']?.split(','),
        onEvent: (event) => (event.type === 'refused' ? process.stderr : process.stdout).write(`${JSON.stringify(event)}\n`),
      });
      const listening = scoring;
      const bound = await listenOrExplain(() => listening.start(onFatal), host, httpPort, '--port');
      process.stdout.write(`${JSON.stringify({ type: 'listening', url: endpointUrl(host, bound), instance: listening.instanceId, source: served.source.description })}\n`);
    },
    stop: async (): Promise<void> => {
      await scoring?.stop();
    },
  };
  return serveUntilSignal(service, 'scoring service', async () => undefined, {
    shutdownTimeoutMs, stopping: 'answering the requests in flight and logging the queued predictions to Kafka', onSignal: (signal) => process.stdout.write(`${JSON.stringify({ type: 'stopping', signal })}\n`),
  });
}
