// A decider instance in its own process (for SIGKILL tests): decides contexts from a fixed sequence,
// four requests at a time, and prints each decision once it is logged (answered) as a JSON line.
// With --kill-after N it SIGKILLs itself once the N-th decision is logged, before answering it (other
// requests in flight at that moment may or may not be logged).
import { parseArgs } from 'node:util';
import { BanditDecider } from '../../../dist/bandit/kafka/index.js';
import { createKafkaPort } from '../../../dist/connectors/kafka/create-kafka-port.js';

const { values } = parseArgs({ options: { brokers: { type: 'string' }, decisions: { type: 'string' }, 'policy-topic': { type: 'string' }, model: { type: 'string' }, 'kill-after': { type: 'string' } } });
const killAfter = Number(values['kill-after'] ?? Infinity);
let logged = 0;
const port = createKafkaPort({ brokers: [values.brokers], clientId: 'vbstream-test-decider', logLevel: 'nothing', client: process.env.VBSTREAM_TEST_KAFKA_CLIENT });
const decider = await BanditDecider.start(port, { decisionsTopic: values.decisions, policyTopic: values['policy-topic'], model: values.model });
await decider.loaded();
let i = 0;
const requests = async () => {
  for (;;) {
    const k = i++;
    const decision = await decider.decide([1, Math.sin(k), Math.cos(3 * k)]);
    if (++logged === killAfter) process.kill(process.pid, 'SIGKILL');
    process.stdout.write(`${JSON.stringify({ type: 'decided', decision })}\n`);
  }
};
await Promise.all([requests(), requests(), requests(), requests()]);
