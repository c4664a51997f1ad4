import { parseArgs } from 'node:util';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { reachBrokers } from '../../connectors/kafka/reach-brokers.js';
import { endpointUrl } from '../../monitoring/endpoint-url.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { OutcomeLearner } from '../../serve/outcome-learner.js';
import { OutcomeMetrics } from '../../serve/outcome-metrics.js';
import { ConfigError } from '../../src/core/config-error.js';
import { getFamily } from '../../src/registry.js';
import { usageOf } from '../command-help.js';
import { joinLearnerFlagsOf } from '../join-learner-flags-of.js';
import { jsonObjectFlag } from '../json-object-flag.js';
import { listenOrExplain } from '../listen-or-explain.js';
import { numberFlag } from '../number-flag.js';
import { serveJoinLearner } from '../serve-join-learner.js';

/**
 * `vbstream serve:learn`, the outcome learner service: an `OutcomeLearner` joining the predictions
 * `vbstream serve` logs (`--predictions`) with the labels on `--outcomes` by prediction id, learning
 * each labelled prediction exactly once into a `--family` model of `--dim` features. Any number of
 * instances share the partitions in one consumer group (`--group-id`); each partition's state goes to
 * `--state-topic` under `NAME/learner/<p>`, the merged posterior for the scoring services to
 * `--posterior-topic` (default: the state topic) under `NAME/global`, where `vbstream serve
 * --snapshot-topic … --model NAME --global` hot-swaps it. Prints its events as JSON lines (the first
 * `{"type":"metrics","url":…}` when it serves metrics); serves /metrics (the served predictions'
 * log-loss, Brier, calibration, label delay), /healthz and /readyz. Signals, exit codes and bad
 * options as `bandit:learn`.
 */
export async function serveLearnCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      brokers: { type: 'string' }, 'kafka-client': { type: 'string' }, predictions: { type: 'string' }, outcomes: { type: 'string' }, model: { type: 'string' }, 'state-topic': { type: 'string' },
      'posterior-topic': { type: 'string' }, family: { type: 'string' }, dim: { type: 'string' }, 'family-options': { type: 'string' }, 'max-abs-input': { type: 'string' },
      'label-window-ms': { type: 'string' }, 'expired-label': { type: 'string' },
      partitions: { type: 'string' }, 'snapshot-every': { type: 'string' }, 'group-id': { type: 'string' }, 'session-timeout-ms': { type: 'string' },
      'max-state-record-bytes': { type: 'string' },
      'metrics-port': { type: 'string' }, 'metrics-host': { type: 'string' }, 'metrics-allowed-hosts': { type: 'string' }, 'no-metrics': { type: 'boolean', default: false },
      'shutdown-timeout-ms': { type: 'string' },
    },
  });
  const { brokers, predictions, outcomes, model, family } = values;
  const stateTopic = values['state-topic'];
  if (brokers === undefined || predictions === undefined || outcomes === undefined || model === undefined || stateTopic === undefined || family === undefined || values.dim === undefined || values['label-window-ms'] === undefined) {
    throw new ConfigError(`--brokers, --predictions, --outcomes, --model, --state-topic, --family, --dim and --label-window-ms are required\n${usageOf('serve:learn')}`);
  }
  const dim = numberFlag('--dim', values.dim, 0, { min: 1 });
  const familyOptions = values['family-options'] === undefined ? undefined : jsonObjectFlag('--family-options', values['family-options']);
  const maxAbsInput = values['max-abs-input'] === undefined ? undefined : numberFlag('--max-abs-input', values['max-abs-input'], 0, { min: 1, integer: false });
  const labelWindowMs = numberFlag('--label-window-ms', values['label-window-ms'], 0, { min: 1, integer: false });
  const expiredLabel = values['expired-label'] === undefined ? undefined : numberFlag('--expired-label', values['expired-label'], 0, { min: -Infinity, integer: false });
  const { partitions, snapshotEvery, sessionTimeoutMs, maxStateRecordBytes, endpoint, shutdownTimeoutMs } = joinLearnerFlagsOf(values);

  const monitoring = new PipelineMetrics({ pipeline: model });
  const metrics = new OutcomeMetrics(monitoring.registry, getFamily(family).task);
  const readiness = new Readiness(['learner-started']);
  monitoring.observeReadiness(readiness);
  const brokerList = brokers.split(',');
  const port = createKafkaPort({ brokers: brokerList, clientId: `vbstream-outcome-learner-${process.pid}`, logLevel: 'nothing', client: values['kafka-client'] as KafkaConnection['client'] });
  OutcomeLearner.check({ family, dim, familyOptions, maxAbsInput, labelWindowMs, expiredLabel }); // bad options are refused before anything connects
  await reachBrokers(port, brokerList);
  const server = endpoint === undefined ? undefined : new MetricsServer({ metrics: monitoring, readiness, host: endpoint.host, port: endpoint.port, allowedHosts: endpoint.allowedHosts });
  if (server !== undefined && endpoint !== undefined) {
    const bound = await listenOrExplain(() => server.listen(), endpoint.host, endpoint.port, '--metrics-port');
    process.stdout.write(`${JSON.stringify({ type: 'metrics', url: endpointUrl(endpoint.host, bound, 'metrics') })}\n`);
  }
  const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
  const posteriorStore = values['posterior-topic'] === undefined ? undefined : await KafkaSnapshotStore.open(port, { topic: values['posterior-topic'] });
  const learner = new OutcomeLearner(port, store, {
    predictionsTopic: predictions, outcomesTopic: outcomes, model, family, dim, familyOptions, maxAbsInput, labelWindowMs, expiredLabel, posteriorStore,
    partitions, snapshotEvery, metrics, groupId: values['group-id'], sessionTimeoutMs, maxStateRecordBytes,
    onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
  });
  return serveJoinLearner(learner, 'outcome learner', readiness, () => Promise.all([store.close(), posteriorStore?.close(), server?.close()]), shutdownTimeoutMs);
}
