import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BanditDecider } from '../../bandit/kafka/bandit-decider.js';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { EpsilonGreedyPolicy } from '../../src/bandit/epsilon-greedy-policy.js';
import { restorePolicy } from '../../src/bandit/restore-policy.js';
import { SimulatedBandit } from '../../src/bandit/simulated-bandit.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { InputError } from '../../src/core/input-error.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { InMemoryKafka } from '../connectors/kafka/in-memory-kafka.js';

describe('BanditDecider (in-memory Kafka): estimated regret, served policy and rewards', () => {
  it('adds max_a E[r|x,a] − E[r|x,chosen] of the serving policy per decision, reports the policy it serves and writes rewards keyed by decision id', async () => {
    const world = new SimulatedBandit({ arms: 3, dim: 2, seed: 8 });
    const trained = new EpsilonGreedyPolicy({ arms: 3, dim: 2, seed: 1, epsilon: 1 }); // always explores: most choices are regretted
    for (let t = 0; t < 200; t++) {
      const d = trained.decide(world.context());
      trained.learn(d, world.reward(d.context, d.arm));
    }
    const kafka = new InMemoryKafka();
    kafka.createTopic('policy', 1);
    kafka.append('policy', 0, null, 'other'); // another key: not followed
    kafka.topics.get('policy')![0].push({ key: Buffer.from(snapshotKey('m', 'global')), value: Buffer.from(encodeSnapshot(trained.snapshot(), { model: 'm', rewards: 200 })), headers: {} });
    const registry = new Registry();
    const swaps: [number, number][] = [];
    const decider = await BanditDecider.start(kafka, { decisionsTopic: 'decisions', rewardsTopic: 'rewards', policyTopic: 'policy', model: 'm', instanceId: 'd1', metrics: new BanditMetrics(registry, 'decider'), onSwap: (rewards, version) => swaps.push([rewards, version]) });
    expect(decider.ready).toBe(false);
    await kafka.deliver('policy', 0, 0);
    expect([decider.ready, decider.policyRewards, decider.policyVersion, swaps]).toEqual([true, 200, 1, [[200, 1]]]);

    const judge = restorePolicy(trained.snapshot());
    let expected = 0;
    for (let i = 0; i < 50; i++) {
      const decision = await decider.decide(world.context());
      const means = judge.expectedRewards(Float64Array.from(decision.context));
      expected += Math.max(...means) - means[decision.arm];
    }
    expect(expected).toBeGreaterThan(0);
    const samples = parsePrometheusText(await registry.metrics());
    expect(sampleValue(samples, 'vbstream_bandit_estimated_regret_total')).toBeCloseTo(expected, 10);
    expect(sampleValue(samples, 'vbstream_bandit_decisions_total')).toBe(50);
    expect(sampleValue(samples, 'vbstream_bandit_policy_rewards')).toBe(200);

    await decider.reward('d1-3', true);
    await expect(decider.reward('d1-4', 'yes')).rejects.toThrow(/reward must be a finite number/);
    expect(kafka.topics.get('rewards')![0].map((r) => [r.key?.toString(), r.value?.toString()])).toEqual([['d1-3', '{"decisionId":"d1-3","reward":1}']]);
    expect(kafka.topics.get('decisions')![0]).toHaveLength(50);
    await decider.stop();
  });

  it('refuses a context with a finite but huge value (1e200) with an InputError before anything is logged (issue 26, item 11)', async () => {
    const kafka = new InMemoryKafka();
    kafka.createTopic('policy', 1);
    kafka.topics.get('policy')![0].push({ key: Buffer.from(snapshotKey('m', 'global')), value: Buffer.from(encodeSnapshot(new ThompsonPolicy({ arms: 3, dim: 2, seed: 1 }).snapshot(), { model: 'm', rewards: 0 })), headers: {} });
    const decider = await BanditDecider.start(kafka, { decisionsTopic: 'decisions', policyTopic: 'policy', model: 'm', instanceId: 'd1' });
    await kafka.deliver('policy', 0, 0);
    const refused = decider.decide([1, 1e200]);
    await expect(refused).rejects.toBeInstanceOf(InputError);
    await expect(refused).rejects.toMatchObject({ location: { field: 'context[1]', value: 1e200 } });
    expect(kafka.topics.get('decisions')![0]).toHaveLength(0);
    const decision = await decider.decide([1, 0.5]);
    expect(decision.decisionId).toBe('d1-1');
    expect(Number.isFinite(decision.propensity)).toBe(true);
    expect(kafka.topics.get('decisions')![0].map((r) => r.key?.toString())).toEqual(['d1-1']);
    await decider.stop();
  });
});
