import { expect } from 'vitest';
import { BanditLearner } from '../../../bandit/kafka/bandit-learner.js';
import { createBanditPolicy, type BanditPolicyConfig } from '../../../bandit/kafka/create-bandit-policy.js';
import type { LoggedDecision } from '../../../bandit/kafka/logged-decision.js';
import type { AdminPort, KafkaPort, ProducerPort } from '../../../connectors/kafka/kafka-port.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import type { ModelSnapshot } from '../../../src/core/model-snapshot.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { Rng } from '../../../src/rng/rng.js';
import { readRecords, waitFor } from '../../kafka/helpers.js';

/** The bandit fault tests' topics: decisions and rewards co-partitioned, the learner's state beside them. */
export interface BanditTopics {
  readonly prefix: string;
  readonly decisions: string;
  readonly rewards: string;
  readonly state: string;
}

export function banditTopics(prefix: string): BanditTopics {
  return { prefix, decisions: `${prefix}.decisions`, rewards: `${prefix}.rewards`, state: `${prefix}.state` };
}

/** `vbstream bandit:learn` arguments for the fault tests: model `live`, expired rewards 0, no metrics, a 6 s session. */
export function learnerServiceArgs(topics: BanditTopics, policy: BanditPolicyConfig, options: { windowMs: number; snapshotEvery: number; partitions: number }): string[] {
  return ['--decisions', topics.decisions, '--rewards', topics.rewards, '--model', 'live', '--state-topic', topics.state, '--policy', JSON.stringify(policy),
    '--reward-window-ms', String(options.windowMs), '--expired-reward', '0', '--snapshot-every', String(options.snapshotEvery), '--partitions', String(options.partitions),
    '--session-timeout-ms', '6000', '--no-metrics'];
}

/**
 * The simulated world of the fault tests: three logistic arms over [1, x₁, x₂], one seeded stream
 * for contexts and rewards (so a test draws both from `environment`, in its own order), and a
 * producer sending rewards keyed by decision id.
 */
export class LogisticRewardWorld {
  readonly environment: Rng;
  private readonly weights = [[-0.5, 1, 0], [0, -1, 1], [0.3, 0, -1]];
  private readonly producer: ProducerPort;

  private constructor(port: KafkaPort, private readonly rewardsTopic: string, seed: number) {
    this.environment = Rng.fromSeed(seed);
    this.producer = port.producer();
  }

  static async open(port: KafkaPort, rewardsTopic: string, seed: number): Promise<LogisticRewardWorld> {
    const world = new LogisticRewardWorld(port, rewardsTopic, seed);
    await world.producer.connect();
    return world;
  }

  context(): number[] {
    return [1, this.environment.normal(), this.environment.normal()];
  }

  async sendRewards(decisions: readonly LoggedDecision[]): Promise<void> {
    await this.producer.send({ topic: this.rewardsTopic, acks: -1, messages: decisions.map((d) => ({ key: d.decisionId, value: JSON.stringify({ decisionId: d.decisionId, reward: this.rewardOf(d) }) })) });
  }

  close(): Promise<void> {
    return this.producer.disconnect();
  }

  private rewardOf(d: LoggedDecision): number {
    const f = this.weights[d.arm].reduce((sum, w, j) => sum + w * d.context[j], 0);
    return Number(this.environment.nextDouble() < 1 / (1 + Math.exp(-f)));
  }
}

/** Every decision on the decisions topic, by id (asserted unique), and how many were logged. */
export async function loggedDecisions(port: KafkaPort, admin: AdminPort, topic: string): Promise<{ logged: number; byId: Map<string, LoggedDecision> }> {
  const logged = (await admin.fetchTopicOffsets(topic)).reduce((sum, o) => sum + Number(o.high), 0);
  const records = await readRecords(port, topic, logged);
  const byId = new Map(records.map((r) => [r.key!, JSON.parse(r.value!.toString()) as LoggedDecision]));
  expect(byId.size).toBe(logged);
  return { logged, byId };
}

/** The merged policy the learners published (`live/global`) and its meta. */
export async function publishedPolicy(port: KafkaPort, stateTopic: string): Promise<ReturnType<typeof decodeSnapshot>> {
  const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
  const published = decodeSnapshot((await store.latest('live/global'))!);
  await store.close();
  return published;
}

/**
 * Reads the topics with one learner, uninterrupted (its window never closes: it applies the expiry
 * markers from the log), until it has learned `logged` decisions on `partitions` partitions, and
 * asserts `published` is its policy bit for bit.
 */
export async function expectUninterruptedPolicy(port: KafkaPort, topics: BanditTopics, policy: BanditPolicyConfig, logged: number, partitions: number, published: ModelSnapshot): Promise<void> {
  const referenceStore = await KafkaSnapshotStore.open(port, { topic: `${topics.prefix}.reference` });
  const reference = new BanditLearner(port, referenceStore, { decisionsTopic: topics.decisions, rewardsTopic: topics.rewards, model: 'reference', createPolicy: () => createBanditPolicy(policy), rewardWindowMs: 1e9 });
  let failure: Error | undefined;
  await reference.start((error) => { failure = error; });
  await waitFor(() => reference.partitions.length === partitions && reference.learned === logged && reference.pendingCount === 0, () => `the reference learner (${reference.learned} of ${logged})`);
  const uninterrupted = reference.currentPolicy.snapshot();
  await reference.stop();
  await referenceStore.close();
  expect(failure).toBeUndefined();
  expect(Object.keys(published.arrays).sort()).toEqual(Object.keys(uninterrupted.arrays).sort());
  for (const [name, values] of Object.entries(uninterrupted.arrays)) expect(Array.from(published.arrays[name]), name).toEqual(Array.from(values));
  expect(published.header.models).toEqual(uninterrupted.header.models);
}
