import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { BanditDecider } from '../../bandit/kafka/bandit-decider.js';
import { BanditLearner } from '../../bandit/kafka/bandit-learner.js';
import type { LoggedDecision } from '../../bandit/kafka/logged-decision.js';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { LinUcbPolicy } from '../../src/bandit/lin-ucb-policy.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { ConfigError } from '../../src/core/config-error.js';
import { readRecords, suiteBroker, unique, waitFor } from './helpers.js';

const ARMS = 3;
const D = 2;

describe('bandit backend over Kafka: deciders, learner, reward window, dead letters (real broker)', () => {
  const { port } = suiteBroker();

  /** A learner and a decider on fresh topics, 6 decisions, rewards for 3 of them (one twice) and one for no decision. */
  async function run(expiredReward: number | undefined): Promise<{ learner: BanditLearner; decisions: LoggedDecision[]; registry: Registry; finish: () => Promise<void> }> {
    const prefix = unique('kbandit');
    const registry = new Registry();
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const learner = new BanditLearner(port, store, {
      decisionsTopic: `${prefix}.decisions`, rewardsTopic: `${prefix}.rewards`, model: 'm', createPolicy: () => new ThompsonPolicy({ seed: 1, arms: ARMS, dim: D }),
      // The rewards must be read within the window, before the learner marks their decisions expired: 10 s, for a loaded machine.
      rewardWindowMs: 10_000, expiryCheckMs: 200, expiredReward, snapshotEvery: 4, metrics: new BanditMetrics(registry, 'learner'),
    });
    let failure: Error | undefined;
    await learner.start((error) => { failure = error; });
    const decider = await BanditDecider.start(port, { decisionsTopic: `${prefix}.decisions`, policyTopic: `${prefix}.state`, model: 'm' });
    await decider.loaded();
    const producer = port.producer();
    await producer.connect();
    const decisions = await Promise.all(Array.from({ length: 6 }, (_, i) => decider.decide([1, i / 6])));
    expect(new Set(decisions.map((d) => d.decisionId)).size).toBe(6);
    expect(decisions.every((d) => d.decisionId.startsWith(`${decider.instanceId}-`))).toBe(true);
    const reward = (decisionId: string, value: number) => ({ key: decisionId, value: JSON.stringify({ decisionId, reward: value }) });
    await producer.send({
      topic: `${prefix}.rewards`, acks: -1,
      messages: [reward(decisions[0].decisionId, 1), reward(decisions[1].decisionId, 0), reward(decisions[2].decisionId, 1), reward(decisions[0].decisionId, 1), reward('ghost-1', 1), { key: 'x', value: '{"decisionId": "x", "reward": "yes"}' }],
    });
    await waitFor(() => learner.learned === 3 && learner.pendingCount === 3, () => `3 rewards learned (have ${learner.learned}, ${learner.pendingCount} pending)`);
    await waitFor(() => decider.policyRewards === 3, () => `the decider to swap in the policy that learned 3 rewards (serving ${decider.policyRewards}, ${decider.swaps} swaps)`);
    expect(decisions.every((d) => d.policyRewards === 0)).toBe(true);
    return {
      learner, decisions, registry,
      finish: async () => {
        await producer.send({ topic: `${prefix}.rewards`, acks: -1, messages: [reward(decisions[3].decisionId, 1)] });
        const letters = await readRecords(port, `${prefix}.rewards.dlq`, 4);
        expect(letters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([
          [decisions[0].decisionId, 'duplicate-reward'], ['ghost-1', 'unknown-decision'], ['x', 'bad-label'], [decisions[3].decisionId, 'late-reward'],
        ]);
        expect(letters[1].headers[DEAD_LETTER_HEADERS.detail]).toContain('no decision ghost-1 was logged');
        expect(failure).toBeUndefined();
        await producer.disconnect();
        await decider.stop();
        await learner.stop();
        await store.close();
      },
    };
  }

  it('learns rewards once; after the window an unrewarded decision is learned with the default reward; duplicate, unknown, bad and late rewards go to the DLQ with their reason', async () => {
    const { learner, decisions, registry, finish } = await run(0);
    await waitFor(() => learner.learned === 6 && learner.pendingCount === 0, () => `the 3 expired decisions learned with reward 0 (learned ${learner.learned})`);
    const metrics = await registry.metrics();
    for (const line of ['vbstream_bandit_joined_decisions_total 6', 'vbstream_bandit_rewards_total{outcome="rewarded"} 3', 'vbstream_bandit_rewards_total{outcome="expired-learned"} 3',
      'vbstream_bandit_reward_delay_seconds_count 3', 'vbstream_bandit_cumulative_reward 2', 'vbstream_bandit_pending_decisions 0', 'vbstream_bandit_dead_letters_total{reason="duplicate-reward"} 1']) expect(metrics).toContain(line);
    const policy = learner.currentPolicy as ThompsonPolicy;
    const perArm = new Array<number>(ARMS).fill(0);
    for (const d of decisions) perArm[d.arm]++;
    expect(policy.models.map((m) => m.recordsSeen)).toEqual(perArm);
    await finish();
  });

  it('refuses a policy that cannot merge (LinUCB) on more than one partition, with a ConfigError, and runs it on one', async () => {
    const prefix = unique('kbandit-linucb');
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.state` });
    const options = { decisionsTopic: `${prefix}.decisions`, rewardsTopic: `${prefix}.rewards`, model: 'm', createPolicy: () => new LinUcbPolicy({ arms: 2, dim: 2 }), rewardWindowMs: 60_000 };
    const split = new BanditLearner(port, store, { ...options, partitions: 2 });
    await expect(split.start(() => undefined)).rejects.toThrow(ConfigError);
    await split.stop();
    const single = new BanditLearner(port, store, { ...options, decisionsTopic: `${prefix}.one.decisions`, rewardsTopic: `${prefix}.one.rewards`, partitions: 1 });
    await single.start(() => undefined);
    await waitFor(() => single.partitions.length === 1, 'the one partition restored');
    await single.stop();
    await store.close();
  });

  it('with expired decisions dropped, an unrewarded decision is never learned and its late reward is dead-lettered', async () => {
    const { learner, decisions, finish } = await run(undefined);
    await waitFor(() => learner.pendingCount === 0, () => `the 3 expired decisions dropped (${learner.pendingCount} pending)`);
    expect(learner.learned).toBe(3);
    const policy = learner.currentPolicy as ThompsonPolicy;
    const perArm = new Array<number>(ARMS).fill(0);
    for (const d of decisions.slice(0, 3)) perArm[d.arm]++;
    expect(policy.models.map((m) => m.recordsSeen)).toEqual(perArm);
    await finish();
  });
});
