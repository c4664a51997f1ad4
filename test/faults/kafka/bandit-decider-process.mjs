// A decider instance in its own process (for SIGKILL tests): decides contexts from a seeded sequence,
// four requests at a time, and prints each decision once it is logged (answered) as a JSON line.
import { parseArgs } from 'node:util';
import { BanditDecider } from '../../../dist/bandit/kafka/index.js';
import { createKafkajsPort } from '../../../dist/connectors/kafka/kafkajs-port.js';

const { values } = parseArgs({ options: { brokers: { type: 'string' }, decisions: { type: 'string' }, 'policy-topic': { type: 'string' }, model: { type: 'string' } } });
const port = createKafkajsPort({ brokers: [values.brokers], clientId: 'vbstream-test-decider', logLevel: 'nothing' });
const decider = await BanditDecider.start(port, { decisionsTopic: values.decisions, policyTopic: values['policy-topic'], model: values.model });
await decider.loaded();
let i = 0;
const requests = async () => {
  for (;;) {
    const k = i++;
    const decision = await decider.decide([1, Math.sin(k), Math.cos(3 * k)]);
    process.stdout.write(`${JSON.stringify({ type: 'decided', decision })}\n`);
  }
};
await Promise.all([requests(), requests(), requests(), requests()]);
