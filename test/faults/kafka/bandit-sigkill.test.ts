import { describe, expect, it } from 'vitest';
import { BanditDecider } from '../../../bandit/kafka/bandit-decider.js';
import type { BanditLearnerEvent } from '../../../bandit/kafka/bandit-learner-event.js';
import type { BanditPolicyConfig } from '../../../bandit/kafka/create-bandit-policy.js';
import type { LoggedDecision } from '../../../bandit/kafka/logged-decision.js';
import { ThompsonPolicy } from '../../../src/bandit/thompson-policy.js';
import { PATIENCE_MS } from '../../helpers/wait-for.js';
import { ServiceProcess, suiteBroker, unique, waitFor } from '../../kafka/helpers.js';
import { banditTopics, expectUninterruptedPolicy, learnerServiceArgs, loggedDecisions, LogisticRewardWorld, publishedPolicy } from './bandit-fault-world.js';

const ARMS = 3;
const D = 3;
const ROUNDS = 8;
const PER_ROUND = 40;
const WINDOW_MS = 15_000;

/**
 * Each partition has its own policy, fed that partition's rewards and expiry markers in its log
 * order, and the published policy merges the partitions' policies in partition order; learning
 * draws nothing at random. So the killed-and-restarted learner and the uninterrupted one agree bit
 * for bit (tolerance 0) on one partition and on two (Thompson sampling, vb-logit-online arms merged
 * by SDA-Bayes). Before the state was per partition, two partitions' batches interleaved into one
 * sequential posterior as the fetches fell, and only LinUCB's order-free state could be compared.
 */
const CASES: readonly (readonly [number, BanditPolicyConfig])[] = [
  [1, { kind: 'thompson', seed: 5, arms: ARMS, dim: D }],
  [2, { kind: 'thompson', seed: 5, arms: ARMS, dim: D }],
];

/**
 * The bandit backend under crashes: two deciders in this process and a third in its own, a learner
 * service in its own; the learner is SIGKILLed mid-stream (rewards still arriving) and restarted,
 * the third decider is SIGKILLed with requests in flight, right after its 30th decision is logged
 * and before it is answered. No decision is lost (every answered
 * decision is on the decisions topic, ids unique across the three instances), every decision is
 * resolved exactly once (rewarded, or learned with the default reward when its window closed: the
 * killed decider's decisions that were logged but never answered), and the killed-and-restarted
 * learner's published policy is bit for bit the policy of one learner reading the same topics
 * without interruption.
 */
describe('bandit backend: SIGKILL of the learner and of a decider (real broker)', () => {
  const { port, admin } = suiteBroker();

  it.each(CASES)('%i partition(s): loses no decision, resolves each exactly once and ends at the uninterrupted posterior', async (partitions, POLICY) => {
    const topics = banditTopics(unique('kbandit-kill'));
    const learnerArgs = learnerServiceArgs(topics, POLICY, { windowMs: WINDOW_MS, snapshotEvery: 15, partitions });
    let learner = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    await waitFor(() => learner.events.some((e) => e.type === 'restored'), () => `the learner to start (stderr: ${learner.stderr})`);
    const deciders = await Promise.all([0, 1].map(() => BanditDecider.start(port, { decisionsTopic: topics.decisions, policyTopic: topics.state, model: 'live' })));
    await Promise.all(deciders.map((d) => d.loaded()));

    const world = await LogisticRewardWorld.open(port, topics.rewards, 17);
    const answered: LoggedDecision[] = [];

    // A third decider in its own process, SIGKILLed with requests in flight, right after its 30th decision is logged and before it is answered: its answered decisions get rewards.
    const third = new ServiceProcess<{ type: 'decided'; decision: LoggedDecision }>(['--decisions', topics.decisions, '--policy-topic', topics.state, '--model', 'live', '--kill-after', '30'], undefined, 'test/faults/kafka/bandit-decider-process.mjs');
    expect((await third.exited).signal).toBe('SIGKILL');
    const thirdAnswered = third.events.map((e) => e.decision);
    answered.push(...thirdAnswered);
    await world.sendRewards(thirdAnswered);

    let killedAt = -1;
    for (let round = 0; round < ROUNDS; round++) {
      const contexts = Array.from({ length: PER_ROUND }, () => world.context());
      const made = (await Promise.all(deciders.map((decider, k) => Promise.all(contexts.filter((_, i) => i % 2 === k).map((x) => decider.decide(x)))))).flat();
      answered.push(...made);
      const kill = killedAt < 0 && learner.events.filter((e) => e.type === 'checkpoint' && e.learned > 0).length >= 2;
      const sending = (async () => { for (let start = 0; start < made.length; start += 10) await world.sendRewards(made.slice(start, start + 10)); })();
      if (kill) {
        // Mid-stream: while this round's rewards arrive, some learned since the last snapshot, some not yet read.
        await new Promise((resolve) => setTimeout(resolve, 20 + world.environment.nextDouble() * 200));
        await learner.kill();
        killedAt = round;
        learner = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
      }
      await sending;
    }
    expect(killedAt, 'the learner was killed mid-stream').toBeGreaterThanOrEqual(0);
    expect(killedAt).toBeLessThan(ROUNDS - 1);

    // No decision lost: every answered one is logged; ids unique; three instances.
    const { logged, byId } = await loggedDecisions(port, admin, topics.decisions);
    for (const d of answered) expect(byId.get(d.decisionId)).toEqual(d);
    expect(new Set([...byId.values()].map((d) => d.instance)).size).toBe(3);
    expect(logged - answered.length, 'decisions logged and never answered (the killed decider\'s): at least its 30th').toBeGreaterThanOrEqual(1);

    // Each decision resolved once: rewarded, or (logged by the killed decider, never answered) learned with reward 0 after the window.
    const done = (e: BanditLearnerEvent): boolean => e.type === 'published' && e.pending === 0 && e.learned === logged;
    await waitFor(() => learner.events.some(done), () => `the restarted learner to resolve all ${logged} decisions (stderr: ${learner.stderr})`, WINDOW_MS + PATIENCE_MS);
    expect(learner.events.find((e) => e.type === 'restored'), 'the restarted learner restored the state').toMatchObject({ fromSnapshot: true });
    expect(await learner.stop()).toEqual({ code: 0, signal: null });
    expect(learner.stderr).toBe('');
    for (const d of deciders) await d.stop();
    await world.close();
    expect((await admin.fetchTopicOffsets(`${topics.rewards}.dlq`)).map((o) => Number(o.high)), 'no reward dead-lettered (none duplicate, late or unknown)').toEqual(new Array<number>(partitions).fill(0));

    const { snapshot: killed, meta } = await publishedPolicy(port, topics.state);
    expect(meta.rewards).toBe(logged);
    if (POLICY.kind === 'thompson') {
      const perArm = new Array<number>(ARMS).fill(0);
      for (const d of byId.values()) perArm[d.arm]++;
      expect(ThompsonPolicy.restore(killed).models.map((m) => m.recordsSeen)).toEqual(perArm);
    }

    // The same topics read by one learner without interruption (it applies the killed learner's expiry markers from the log).
    await expectUninterruptedPolicy(port, topics, POLICY, logged, partitions, killed);
  }, 400_000);
});
