import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BanditMetrics } from '../../bandit/kafka/bandit-metrics.js';

/** The series names in a registry's exposition (histograms by their base name). */
async function seriesOf(registry: Registry): Promise<string[]> {
  return (await registry.getMetricsAsJSON()).map((metric) => metric.name).sort();
}

/** Each bandit process exports its own role's series only, so that a dashboard over deciders and a learner shows each series once. */
describe('BanditMetrics by role', () => {
  it('a decider exports decisions, arms, propensities, regret, the served policy and its requests; a learner the joins, rewards, delays, pending decisions and dead letters; no series in both', async () => {
    const deciderRegistry = new Registry();
    const decider = new BanditMetrics(deciderRegistry, 'decider');
    decider.recordDecision(0.5, 1);
    decider.recordEstimatedRegret(0.1);
    decider.setPolicyRewards(3);
    decider.recordRequest('/decide', 200, 0.01);
    const learnerRegistry = new Registry();
    const learner = new BanditMetrics(learnerRegistry, 'learner');
    learner.recordDecision(0.5, 1);
    learner.recordReward(1, 1);
    learner.recordExpired(true);
    learner.recordDeadLetter('duplicate-reward');
    learner.setPending(2);

    expect(await seriesOf(deciderRegistry)).toEqual([
      'vbstream_bandit_arm_decisions_total', 'vbstream_bandit_decisions_total', 'vbstream_bandit_estimated_regret_total',
      'vbstream_bandit_http_request_duration_seconds', 'vbstream_bandit_http_requests_total', 'vbstream_bandit_policy_rewards', 'vbstream_bandit_propensity',
    ]);
    expect(await seriesOf(learnerRegistry)).toEqual([
      'vbstream_bandit_cumulative_reward', 'vbstream_bandit_dead_letters_total', 'vbstream_bandit_joined_decisions_total', 'vbstream_bandit_pending_decisions',
      'vbstream_bandit_reward_delay_seconds', 'vbstream_bandit_rewards_total',
    ]);
    // the learner's live page still counts the arms it joined
    expect(learner.armChoices()).toEqual([0, 1]);
    expect(learner.cumulativeReward()).toBe(1);
  });
});
