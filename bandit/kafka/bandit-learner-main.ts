#!/usr/bin/env node
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import type { KafkaConnection } from '../../connectors/kafka/kafka-connection.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { BanditLearner } from './bandit-learner.js';
import { createBanditPolicy, type BanditPolicyConfig } from './create-bandit-policy.js';
import { serveUntilSignal } from '../../connectors/kafka/serve-until-signal.js';

/** Usage of the bandit learner service. */
const USAGE = `node dist/bandit/kafka/bandit-learner-main.js --brokers host:port --decisions T --rewards T --model NAME --state-topic T --policy '<json>'
    --reward-window-ms N [--expired-reward R | (default: drop)] [--policy-topic T] [--partitions N] [--snapshot-every N] [--kafka-client kafkajs|platformatic]
  Joins decisions and rewards by decision id and learns the policy exactly once; its state goes to --state-topic, the policy
  for the deciders to --policy-topic (default: the state topic) under NAME/global. --policy is a BanditPolicyConfig,
  e.g. {"kind":"thompson","seed":1,"arms":3,"dim":4}. Prints its events as JSON lines; SIGTERM/SIGINT snapshot and exit 0.`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      brokers: { type: 'string' }, decisions: { type: 'string' }, rewards: { type: 'string' }, model: { type: 'string' }, 'state-topic': { type: 'string' },
      'policy-topic': { type: 'string' }, policy: { type: 'string' }, 'reward-window-ms': { type: 'string' }, 'expired-reward': { type: 'string' },
      partitions: { type: 'string' }, 'snapshot-every': { type: 'string' }, 'kafka-client': { type: 'string' },
    },
  });
  const { brokers, decisions, rewards, model, policy } = values;
  const stateTopic = values['state-topic'];
  if (brokers === undefined || decisions === undefined || rewards === undefined || model === undefined || stateTopic === undefined || policy === undefined || values['reward-window-ms'] === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = JSON.parse(policy) as BanditPolicyConfig;
  const port = createKafkaPort({ brokers: brokers.split(','), clientId: `vbstream-bandit-learner-${process.pid}`, client: values['kafka-client'] as KafkaConnection['client'] });
  const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
  const policyStore = values['policy-topic'] === undefined ? undefined : await KafkaSnapshotStore.open(port, { topic: values['policy-topic'] });
  const learner = new BanditLearner(port, store, {
    decisionsTopic: decisions, rewardsTopic: rewards, model, createPolicy: () => createBanditPolicy(config), policyStore,
    rewardWindowMs: Number(values['reward-window-ms']),
    expiredReward: values['expired-reward'] === undefined ? undefined : Number(values['expired-reward']),
    partitions: values.partitions === undefined ? undefined : Number(values.partitions),
    snapshotEvery: values['snapshot-every'] === undefined ? undefined : Number(values['snapshot-every']),
    onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
  });
  return serveUntilSignal(learner, 'learner', () => Promise.all([store.close(), policyStore?.close()]));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
