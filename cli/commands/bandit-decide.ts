import { parseArgs } from 'node:util';
import { BanditDecider } from '../../bandit/kafka/bandit-decider.js';
import { BanditHttpService } from '../../bandit/kafka/bandit-http-service.js';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { reachBrokers } from '../../connectors/kafka/reach-brokers.js';
import { serveUntilSignal } from '../../connectors/kafka/serve-until-signal.js';
import { HTTP_LIMITS } from '../../monitoring/http-limits.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { ConfigError } from '../../src/core/config-error.js';
import { usageOf } from '../command-help.js';
import { endpointUrl } from '../../monitoring/endpoint-url.js';
import { listenOrExplain } from '../listen-or-explain.js';
import { numberFlag } from '../number-flag.js';

/**
 * `vbstream bandit:decide`, a stateless decide service: a `BanditDecider` following the policy the
 * learner publishes (`--policy-topic`, key `NAME/global`), served over HTTP by `BanditHttpService`
 * on `--host:--port` (POST /decide, POST /reward, GET /metrics, GET /health). Prints
 * `{"type":"listening","url":…}` once it listens and `{"type":"policy","rewards":…,"version":…}`
 * whenever it swaps a new policy in, as JSON lines. A request unanswered after `--request-timeout-ms`
 * answers 503 (a broker that does not acknowledge the decision). SIGTERM/SIGINT print
 * `{"type":"stopping","signal":…}`, stop accepting requests, finish the ones in flight, log the queued
 * decisions and exit 0 — or 1 when that fails or does not end within `--shutdown-timeout-ms`; a
 * second signal exits 130 at once.
 */
export async function banditDecideCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      brokers: { type: 'string' }, 'kafka-client': { type: 'string' }, decisions: { type: 'string' }, rewards: { type: 'string' }, 'policy-topic': { type: 'string' }, model: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' }, partitions: { type: 'string' }, 'max-body-bytes': { type: 'string' }, 'instance-id': { type: 'string' },
      'request-timeout-ms': { type: 'string' }, 'shutdown-timeout-ms': { type: 'string' }, 'allowed-hosts': { type: 'string' },
    },
  });
  const { brokers, decisions, rewards, model, host } = values;
  const policyTopic = values['policy-topic'];
  if (brokers === undefined || decisions === undefined || rewards === undefined || policyTopic === undefined || model === undefined) {
    throw new ConfigError(`--brokers, --decisions, --rewards, --policy-topic and --model are required\n${usageOf('bandit:decide')}`);
  }
  const httpPort = numberFlag('--port', values.port, 8080);
  if (httpPort > 65_535) throw new ConfigError('--port must be an integer from 0 (a free port) to 65535', { field: '--port', value: values.port });
  const partitions = numberFlag('--partitions', values.partitions, 1, { min: 1 });
  const maxBodyBytes = numberFlag('--max-body-bytes', values['max-body-bytes'], HTTP_LIMITS.maxBodyBytes, { min: 1 });
  const requestTimeoutMs = numberFlag('--request-timeout-ms', values['request-timeout-ms'], HTTP_LIMITS.requestTimeoutMs, { min: 1 });
  const shutdownTimeoutMs = values['shutdown-timeout-ms'] === undefined ? undefined : numberFlag('--shutdown-timeout-ms', values['shutdown-timeout-ms'], 0, { min: 1 }); // default: serveUntilSignal's
  const allowedHosts = values['allowed-hosts']?.split(',');
  const instanceId = values['instance-id'];
  if (instanceId !== undefined && !/^[A-Za-z0-9_.]+$/.test(instanceId)) throw new ConfigError('--instance-id must be letters, digits, _ or . (decision ids are <instance>-<n>)', { field: '--instance-id', value: instanceId });

  const monitoring = new PipelineMetrics({ pipeline: model });
  const metrics = new BanditMetrics(monitoring.registry, 'decider');
  const brokerList = brokers.split(',');
  const port = createKafkaPort({ brokers: brokerList, clientId: `vbstream-bandit-decider-${process.pid}`, logLevel: 'nothing', client: values['kafka-client'] as KafkaConnection['client'] });
  await reachBrokers(port, brokerList);
  let decider: BanditDecider | undefined;
  let http: BanditHttpService | undefined;
  const service = {
    start: async (): Promise<void> => {
      decider = await BanditDecider.start(port, {
        decisionsTopic: decisions, rewardsTopic: rewards, policyTopic, model, partitions, instanceId, metrics, unresponsiveAfterMs: requestTimeoutMs,
        onError: (error) => process.stderr.write(`a published policy could not be restored (the previous one keeps serving): ${error.message}\n`),
        onSwap: (rewards, version) => process.stdout.write(`${JSON.stringify({ type: 'policy', rewards, version })}\n`),
      });
      const served = decider;
      http = new BanditHttpService({ decider: served, exposition: monitoring, metrics, host, port: httpPort, maxBodyBytes, requestTimeoutMs, allowedHosts });
      const listening = http;
      const bound = await listenOrExplain(() => listening.listen(), host, httpPort, '--port');
      process.stdout.write(`${JSON.stringify({ type: 'listening', url: endpointUrl(host, bound), instance: served.instanceId })}\n`);
    },
    stop: async (): Promise<void> => {
      await http?.close();
      await decider?.stop();
    },
  };
  return serveUntilSignal(service, 'bandit decider', async () => undefined, {
    shutdownTimeoutMs, stopping: 'answering the requests in flight and logging the queued decisions to Kafka', onSignal: (signal) => process.stdout.write(`${JSON.stringify({ type: 'stopping', signal })}\n`),
  });
}
