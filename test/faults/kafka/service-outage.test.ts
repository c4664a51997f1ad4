import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BanditLearnerEvent } from '../../../bandit/kafka/bandit-learner-event.js';
import { createKafkaPort } from '../../../connectors/kafka/create-kafka-port.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import { snapshotKey } from '../../../connectors/kafka/snapshot-key.js';
import { startLocalKafka, type LocalKafka } from '../../../scripts/local-kafka.js';
import { ThompsonPolicy } from '../../../src/bandit/thompson-policy.js';
import { encodeSnapshot } from '../../../src/core/encode-snapshot.js';
import { ServiceProcess, testKafkaClient, unique, waitFor } from '../../kafka/helpers.js';
import { banditTopics, learnerServiceArgs } from './bandit-fault-world.js';

type DeciderLine = { readonly type: 'listening'; readonly url: string } | { readonly type: 'policy' } | { readonly type: 'stopping'; readonly signal: string };
type LearnerLine = BanditLearnerEvent | { readonly type: 'stopping'; readonly signal: string };
interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly json: { readonly status?: string; readonly problem?: string; readonly error?: { readonly kind: string; readonly message: string; readonly retriable: boolean } };
}

async function call(url: string, body?: unknown): Promise<Answer> {
  const response = await fetch(url, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: await response.json() as Answer['json'] };
}

/**
 * The bandit services when their broker goes away — halted (`halt()`: connections refused) or hung
 * (the broker's JVM stopped with SIGSTOP: connections open, nothing answered) — on a broker of the
 * test's own, brought back after (`resume()`, SIGCONT). The services are the CLI processes users run.
 */
describe('bandit services through a broker outage (issue 26, real broker)', () => {
  let broker: LocalKafka;
  let state: 'up' | 'halted' | 'hung' = 'up';
  const running: ServiceProcess<{ readonly type: string }>[] = [];
  beforeAll(async () => { broker = await startLocalKafka(); });
  afterAll(() => broker?.stop());
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.kill()));
    if (state === 'hung') process.kill(broker.pid, 'SIGCONT');
    if (state === 'halted') await broker.resume();
    state = 'up';
  });
  const down = async (how: 'halted' | 'hung'): Promise<void> => {
    if (how === 'halted') await broker.halt();
    else process.kill(broker.pid, 'SIGSTOP');
    state = how;
  };
  const up = async (): Promise<void> => {
    if (state === 'halted') await broker.resume();
    else process.kill(broker.pid, 'SIGCONT');
    state = 'up';
  };

  /** A `vbstream bandit:decide` serving a published Thompson policy over 2 features, with a 3 s request deadline; resolves its URL once it has loaded the policy. */
  async function startDecider(extra: readonly string[] = []): Promise<{ decider: ServiceProcess<DeciderLine>; url: string; decisions: string }> {
    const prefix = unique('outage');
    const port = createKafkaPort({ brokers: [broker.bootstrap], clientId: 'vbstream-test', logLevel: 'nothing', client: testKafkaClient() });
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.policy` });
    await store.save(snapshotKey('shop', 'global'), encodeSnapshot(new ThompsonPolicy({ arms: 2, dim: 2, seed: 1 }).snapshot(), { model: 'shop', rewards: 0 }));
    await store.close();
    const decider = new ServiceProcess<DeciderLine>(['--decisions', `${prefix}.decisions`, '--rewards', `${prefix}.rewards`, '--policy-topic', `${prefix}.policy`, '--model', 'shop',
      '--port', '0', '--request-timeout-ms', '3000', ...extra], 'bandit:decide', undefined, broker.bootstrap);
    running.push(decider);
    await waitFor(() => decider.events.some((e) => e.type === 'listening'), `the decider to listen (stderr: ${decider.stderr})`, 60_000);
    const url = (decider.events.find((e) => e.type === 'listening') as { url: string }).url;
    await waitFor(async () => (await fetch(`${url}health`)).status === 200, 'the decider to load the policy', 60_000);
    return { decider, url, decisions: `${prefix}.decisions` };
  }

  it.each(['halted', 'hung'] as const)('bandit:decide with the broker %s: 503, retriable, with Retry-After, within its request deadline; /health names the broker problem; it decides again once the broker is back (item 10)', async (how) => {
    const { url, decisions } = await startDecider();
    expect((await call(`${url}decide`, { context: [1, 0.5] })).status).toBe(200);
    await down(how);

    const refused = await call(`${url}decide`, { context: [1, 0.5] });
    expect(refused).toMatchObject({ status: 503, retryAfter: '1', json: { error: { kind: 'io', retriable: true } } });
    expect(refused.json.error?.message).toMatch(how === 'halted' ? new RegExp(`${decisions}|did not finish within 3000 ms`) : /did not finish within 3000 ms/);
    await waitFor(async () => (await call(`${url}health`)).json.status === 'broker-unavailable', '/health to name the broker problem', 60_000);
    const health = await call(`${url}health`);
    expect(health.status).toBe(503);
    expect(health.json.problem).toMatch(how === 'halted' ? new RegExp(`${decisions}|no acknowledgement`) : /no acknowledgement from the brokers/);
    const reward = await call(`${url}reward`, { decisionId: 'x-1', reward: 1 });
    expect(reward).toMatchObject({ status: 503, retryAfter: '1', json: { error: { retriable: true } } });

    await up();
    await waitFor(async () => (await call(`${url}health`)).status === 200, '/health to be ok again once the broker is back', 120_000);
    await waitFor(async () => (await call(`${url}decide`, { context: [1, 0.5] })).status === 200, 'a decision once the broker is back', 120_000);
  });

  it.each(['halted', 'hung'] as const)('bandit:learn on SIGTERM with the broker %s: ends within --shutdown-timeout-ms — exit 1 with one stderr line saying what did not finish, unless nothing was left to do (item 12)', async (how) => {
    const topics = banditTopics(unique('outage-learn'));
    const learner = new ServiceProcess<LearnerLine>([...learnerServiceArgs(topics, { kind: 'thompson', arms: 2, dim: 2, seed: 1 }, { windowMs: 60_000, snapshotEvery: 10, partitions: 1 }),
      '--shutdown-timeout-ms', '3000'], 'bandit:learn', undefined, broker.bootstrap);
    running.push(learner);
    await waitFor(() => learner.events.some((e) => e.type === 'restored'), `the learner to start (stderr: ${learner.stderr})`, 60_000);
    await down(how);
    const exit = await learner.stop();
    // A halted broker refuses connections at once: a client whose disconnect needs no answer (kafkajs) stops cleanly when no state is left to write.
    if (how === 'halted' && exit.code === 0) {
      expect(learner.stderr).toBe('');
      return;
    }
    expect(exit).toEqual({ code: 1, signal: null });
    const lines = learner.stderr.trim().split('\n');
    expect(lines, learner.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^bandit learner: shutdown (did not finish within 3000 ms \(still writing the final state snapshots and disconnecting from Kafka\)|failed: )/);
  });

  it('bandit:learn: a second SIGTERM while the first waits for the broker exits at once with 130 (item 12)', async () => {
    const topics = banditTopics(unique('outage-learn2'));
    const learner = new ServiceProcess<LearnerLine>(learnerServiceArgs(topics, { kind: 'thompson', arms: 2, dim: 2, seed: 1 }, { windowMs: 60_000, snapshotEvery: 10, partitions: 1 }),
      'bandit:learn', undefined, broker.bootstrap);
    running.push(learner);
    await waitFor(() => learner.events.some((e) => e.type === 'restored'), `the learner to start (stderr: ${learner.stderr})`, 60_000);
    await down('hung');
    learner.signal('SIGTERM');
    await waitFor(() => learner.events.some((e) => e.type === 'stopping'), 'the learner to start stopping', 30_000);
    learner.signal('SIGINT');
    expect(await learner.exited).toEqual({ code: 130, signal: null });
    expect(learner.stderr).toMatch(/SIGINT again: exiting without finishing the shutdown/);
  });

  it('bandit:decide on SIGTERM with the broker hung: ends within --shutdown-timeout-ms, exit 1, one stderr line (item 12)', async () => {
    const { decider, url } = await startDecider(['--shutdown-timeout-ms', '3000']);
    await down('hung');
    expect((await call(`${url}decide`, { context: [1, 0.5] })).status).toBe(503); // a decision stuck in the producer
    expect(await decider.stop()).toEqual({ code: 1, signal: null });
    const lines = decider.stderr.trim().split('\n');
    expect(lines, decider.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^bandit decider: shutdown (did not finish within 3000 ms|failed)/);
  });
});
