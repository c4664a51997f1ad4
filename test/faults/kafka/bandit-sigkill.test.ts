import { describe, expect, it } from 'vitest';
import { BanditDecider } from '../../../bandit/kafka/bandit-decider.js';
import { BanditLearner } from '../../../bandit/kafka/bandit-learner.js';
import type { BanditLearnerEvent } from '../../../bandit/kafka/bandit-learner-event.js';
import { createBanditPolicy, type BanditPolicyConfig } from '../../../bandit/kafka/create-bandit-policy.js';
import type { LoggedDecision } from '../../../bandit/kafka/logged-decision.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import { ThompsonPolicy } from '../../../src/bandit/thompson-policy.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { Rng } from '../../../src/rng/rng.js';
import { readRecords, ServiceProcess, suiteBroker, unique, waitFor } from '../../kafka/helpers.js';

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
    const prefix = unique('kbandit-kill');
    const topics = { decisions: `${prefix}.decisions`, rewards: `${prefix}.rewards` };
    const stateTopic = `${prefix}.state`;
    const learnerArgs = ['--decisions', topics.decisions, '--rewards', topics.rewards, '--model', 'live', '--state-topic', stateTopic, '--policy', JSON.stringify(POLICY),
      '--reward-window-ms', String(WINDOW_MS), '--expired-reward', '0', '--snapshot-every', '15', '--partitions', String(partitions), '--session-timeout-ms', '6000', '--no-metrics'];
    let learner = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    await waitFor(() => learner.events.some((e) => e.type === 'restored'), `the learner to start (stderr: ${learner.stderr})`, 60_000);
    const deciders = await Promise.all([0, 1].map(() => BanditDecider.start(port, { decisionsTopic: topics.decisions, policyTopic: stateTopic, model: 'live' })));
    await Promise.all(deciders.map((d) => d.loaded()));

    const environment = Rng.fromSeed(17);
    const weights = [[-0.5, 1, 0], [0, -1, 1], [0.3, 0, -1]];
    const answered: LoggedDecision[] = [];
    const producer = port.producer();
    await producer.connect();
    const rewardOf = (d: LoggedDecision): number => {
      const f = weights[d.arm].reduce((sum, w, j) => sum + w * d.context[j], 0);
      return Number(environment.nextDouble() < 1 / (1 + Math.exp(-f)));
    };
    const sendRewards = async (decisions: readonly LoggedDecision[]): Promise<void> => {
      await producer.send({ topic: topics.rewards, acks: -1, messages: decisions.map((d) => ({ key: d.decisionId, value: JSON.stringify({ decisionId: d.decisionId, reward: rewardOf(d) }) })) });
    };

    // A third decider in its own process, SIGKILLed with requests in flight, right after its 30th decision is logged and before it is answered: its answered decisions get rewards.
    const third = new ServiceProcess<{ type: 'decided'; decision: LoggedDecision }>(['--decisions', topics.decisions, '--policy-topic', stateTopic, '--model', 'live', '--kill-after', '30'], undefined, 'test/faults/kafka/bandit-decider-process.mjs');
    expect((await third.exited).signal).toBe('SIGKILL');
    const thirdAnswered = third.events.map((e) => e.decision);
    answered.push(...thirdAnswered);
    await sendRewards(thirdAnswered);

    let killedAt = -1;
    for (let round = 0; round < ROUNDS; round++) {
      const contexts = Array.from({ length: PER_ROUND }, () => [1, environment.normal(), environment.normal()]);
      const made = (await Promise.all(deciders.map((decider, k) => Promise.all(contexts.filter((_, i) => i % 2 === k).map((x) => decider.decide(x)))))).flat();
      answered.push(...made);
      const kill = killedAt < 0 && learner.events.filter((e) => e.type === 'checkpoint' && e.learned > 0).length >= 2;
      const sending = (async () => { for (let start = 0; start < made.length; start += 10) await sendRewards(made.slice(start, start + 10)); })();
      if (kill) {
        // Mid-stream: while this round's rewards arrive, some learned since the last snapshot, some not yet read.
        await new Promise((resolve) => setTimeout(resolve, 20 + environment.nextDouble() * 200));
        await learner.kill();
        killedAt = round;
        learner = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
      }
      await sending;
    }
    expect(killedAt, 'the learner was killed mid-stream').toBeGreaterThanOrEqual(0);
    expect(killedAt).toBeLessThan(ROUNDS - 1);

    // No decision lost: every answered one is logged; ids unique; three instances.
    const logged = (await admin.fetchTopicOffsets(topics.decisions)).reduce((sum, o) => sum + Number(o.high), 0);
    const records = await readRecords(port, topics.decisions, logged);
    const byId = new Map(records.map((r) => [r.key!, JSON.parse(r.value!.toString()) as LoggedDecision]));
    expect(byId.size).toBe(logged);
    for (const d of answered) expect(byId.get(d.decisionId)).toEqual(d);
    expect(new Set([...byId.values()].map((d) => d.instance)).size).toBe(3);
    expect(logged - answered.length, 'decisions logged and never answered (the killed decider\'s): at least its 30th').toBeGreaterThanOrEqual(1);

    // Each decision resolved once: rewarded, or (logged by the killed decider, never answered) learned with reward 0 after the window.
    const done = (e: BanditLearnerEvent): boolean => e.type === 'published' && e.pending === 0 && e.learned === logged;
    await waitFor(() => learner.events.some(done), `the restarted learner to resolve all ${logged} decisions (stderr: ${learner.stderr})`, WINDOW_MS + 90_000);
    expect(learner.events.find((e) => e.type === 'restored'), 'the restarted learner restored the state').toMatchObject({ fromSnapshot: true });
    expect(await learner.stop()).toEqual({ code: 0, signal: null });
    expect(learner.stderr).toBe('');
    for (const d of deciders) await d.stop();
    await producer.disconnect();
    expect((await admin.fetchTopicOffsets(`${topics.rewards}.dlq`)).map((o) => Number(o.high)), 'no reward dead-lettered (none duplicate, late or unknown)').toEqual(new Array<number>(partitions).fill(0));

    const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
    const { snapshot: killed, meta } = decodeSnapshot((await store.latest('live/global'))!);
    await store.close();
    expect(meta.rewards).toBe(logged);
    if (POLICY.kind === 'thompson') {
      const perArm = new Array<number>(ARMS).fill(0);
      for (const d of byId.values()) perArm[d.arm]++;
      expect(ThompsonPolicy.restore(killed).models.map((m) => m.recordsSeen)).toEqual(perArm);
    }

    // The same topics read by one learner without interruption (its window never closes: it applies the killed learner's expiry markers from the log).
    const referenceStore = await KafkaSnapshotStore.open(port, { topic: `${prefix}.reference` });
    const reference = new BanditLearner(port, referenceStore, { decisionsTopic: topics.decisions, rewardsTopic: topics.rewards, model: 'reference', createPolicy: () => createBanditPolicy(POLICY), rewardWindowMs: 1e9 });
    let failure: Error | undefined;
    await reference.start((error) => { failure = error; });
    await waitFor(() => reference.learned === logged && reference.pendingCount === 0, `the reference learner (${reference.learned} of ${logged})`, 90_000);
    const uninterrupted = reference.currentPolicy.snapshot();
    await reference.stop();
    await referenceStore.close();
    expect(failure).toBeUndefined();
    expect(Object.keys(killed.arrays).sort()).toEqual(Object.keys(uninterrupted.arrays).sort());
    for (const [name, values] of Object.entries(uninterrupted.arrays)) expect(Array.from(killed.arrays[name]), name).toEqual(Array.from(values));
    expect(killed.header.models).toEqual(uninterrupted.header.models);
  }, 400_000);
});
