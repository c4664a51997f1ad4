import { parseArgs } from 'node:util';
import { BanditLearner } from '../../bandit/kafka/bandit-learner.js';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { canonicalPolicyKind } from '../../bandit/kafka/canonical-policy-kind.js';
import { createBanditPolicy, type BanditPolicyConfig } from '../../bandit/kafka/create-bandit-policy.js';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { reachBrokers } from '../../connectors/kafka/reach-brokers.js';
import { LiveView } from '../../monitoring/live-view.js';
import { MetricsServer } from '../../monitoring/metrics-server.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { Readiness } from '../../monitoring/readiness.js';
import { ConfigError } from '../../src/core/config-error.js';
import { usageOf } from '../command-help.js';
import { endpointUrl } from '../../monitoring/endpoint-url.js';
import { joinLearnerFlagsOf } from '../join-learner-flags-of.js';
import { jsonObjectFlag } from '../json-object-flag.js';
import { listenOrExplain } from '../listen-or-explain.js';
import { numberFlag } from '../number-flag.js';
import { serveJoinLearner } from '../serve-join-learner.js';

/**
 * `vbstream bandit:learn`, the bandit learner service: a `BanditLearner` joining `--decisions` and
 * `--rewards` by decision id and learning each reward exactly once into the policy of `--policy`
 * (a `BanditPolicyConfig`). Any number of instances share the partitions in one consumer group
 * (`--group-id`); each partition's state goes to `--state-topic` under `NAME/learner/<p>`, the merged
 * policy for the deciders to `--policy-topic` (default: the state topic) under `NAME/global`. Prints its events as JSON lines
 * (the first `{"type":"metrics","url":…,"live":…}` when it serves metrics); serves /metrics, /healthz,
 * /readyz (ready once started) and the live page at / (arm shares, cumulative reward, …) on `--metrics-host:--metrics-port`. SIGTERM/SIGINT print
 * `{"type":"stopping","signal":…}`, snapshot and exit 0 — or 1 when that fails or does not end within
 * `--shutdown-timeout-ms`, and 130 at once on a second signal; a fatal error exits 1, bad options
 * exit 2 (usage) or 1 (`ConfigError`).
 */
export async function banditLearnCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      brokers: { type: 'string' }, 'kafka-client': { type: 'string' }, decisions: { type: 'string' }, rewards: { type: 'string' }, model: { type: 'string' }, 'state-topic': { type: 'string' },
      'policy-topic': { type: 'string' }, policy: { type: 'string' }, 'reward-window-ms': { type: 'string' }, 'expired-reward': { type: 'string' },
      partitions: { type: 'string' }, 'snapshot-every': { type: 'string' }, 'group-id': { type: 'string' }, 'session-timeout-ms': { type: 'string' },
      'max-state-record-bytes': { type: 'string' },
      'metrics-port': { type: 'string' }, 'metrics-host': { type: 'string' }, 'metrics-allowed-hosts': { type: 'string' }, 'no-metrics': { type: 'boolean', default: false },
      'shutdown-timeout-ms': { type: 'string' },
    },
  });
  const { brokers, decisions, rewards, model, policy } = values;
  const stateTopic = values['state-topic'];
  if (brokers === undefined || decisions === undefined || rewards === undefined || model === undefined || stateTopic === undefined || policy === undefined || values['reward-window-ms'] === undefined) {
    throw new ConfigError(`--brokers, --decisions, --rewards, --model, --state-topic, --policy and --reward-window-ms are required\n${usageOf('bandit:learn')}`);
  }
  const given = jsonObjectFlag('--policy', policy);
  const { kind, note } = canonicalPolicyKind(String(given.kind), '--policy kind');
  if (note !== undefined) process.stderr.write(`${note}\n`);
  const config = (note === undefined ? given : { ...given, kind }) as unknown as BanditPolicyConfig;
  createBanditPolicy(config); // a bad policy is refused before anything connects
  const rewardWindowMs = numberFlag('--reward-window-ms', values['reward-window-ms'], 0, { min: 1, integer: false });
  const expiredReward = values['expired-reward'] === undefined ? undefined : numberFlag('--expired-reward', values['expired-reward'], 0, { min: -Infinity, integer: false });
  const { partitions, snapshotEvery, sessionTimeoutMs, maxStateRecordBytes, endpoint, shutdownTimeoutMs } = joinLearnerFlagsOf(values);

  const monitoring = new PipelineMetrics({ pipeline: model });
  const metrics = new BanditMetrics(monitoring.registry, 'learner');
  const readiness = new Readiness(['learner-started']);
  monitoring.observeReadiness(readiness);
  const live = endpoint === undefined ? undefined : new LiveView({ metrics: monitoring, title: model, bandit: metrics });
  const server = endpoint === undefined ? undefined : new MetricsServer({ metrics: monitoring, readiness, host: endpoint.host, port: endpoint.port, allowedHosts: endpoint.allowedHosts, live });
  const brokerList = brokers.split(',');
  const port = createKafkaPort({ brokers: brokerList, clientId: `vbstream-bandit-learner-${process.pid}`, logLevel: 'nothing', client: values['kafka-client'] as KafkaConnection['client'] });
  await reachBrokers(port, brokerList);
  if (server !== undefined && endpoint !== undefined) {
    const bound = await listenOrExplain(() => server.listen(), endpoint.host, endpoint.port, '--metrics-port');
    live?.start();
    process.stdout.write(`${JSON.stringify({ type: 'metrics', url: endpointUrl(endpoint.host, bound, 'metrics'), live: endpointUrl(endpoint.host, bound) })}\n`);
  }
  const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
  const policyStore = values['policy-topic'] === undefined ? undefined : await KafkaSnapshotStore.open(port, { topic: values['policy-topic'] });
  const learner = new BanditLearner(port, store, {
    decisionsTopic: decisions, rewardsTopic: rewards, model, createPolicy: () => createBanditPolicy(config), policyStore,
    rewardWindowMs, expiredReward, partitions, snapshotEvery, metrics, groupId: values['group-id'], sessionTimeoutMs, maxStateRecordBytes,
    onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
  });
  return serveJoinLearner(learner, 'bandit learner', readiness, () => Promise.all([store.close(), policyStore?.close(), server?.close()]), shutdownTimeoutMs);
}
