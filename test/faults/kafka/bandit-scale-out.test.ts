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

const PARTITIONS = 4;
const ARMS = 3;
const D = 3;
const ROUNDS = 10;
const PER_ROUND = 40;
const WINDOW_MS = 12_000;
const POLICY: BanditPolicyConfig = { kind: 'thompson', seed: 5, arms: ARMS, dim: D };

type Assigned = Extract<BanditLearnerEvent, { type: 'assigned' }>;
type Restored = Extract<BanditLearnerEvent, { type: 'restored' }>;

/**
 * Learner scale-out on 4-partition topics: two learner services in one consumer group share the
 * partitions, two deciders decide; one learner is SIGKILLed mid-stream and the other takes its
 * partitions over with their state (policy, pending decisions, offsets). Every ninth decision gets
 * no reward, so decisions are pending when their partition moves and their window closes at the new
 * owner (learned with reward 0). No decision is lost, each is learned exactly once, nothing is
 * dead-lettered, and the merged policy the survivor publishes is bit for bit the merged policy of
 * one learner that read all four partitions without interruption: each partition's policy learns
 * that partition's rewards and expiry markers in log order, and the merge runs in partition order.
 */
describe('bandit learner scale-out: two learners on four partitions, one SIGKILLed (real broker)', () => {
  const { port, admin } = suiteBroker();

  it('moves the killed learner\'s partitions with their state: no decision lost, each learned once, the merged posterior of an uninterrupted run', async () => {
    const prefix = unique('kbandit-scale');
    const topics = { decisions: `${prefix}.decisions`, rewards: `${prefix}.rewards` };
    const stateTopic = `${prefix}.state`;
    const learnerArgs = ['--decisions', topics.decisions, '--rewards', topics.rewards, '--model', 'live', '--state-topic', stateTopic, '--policy', JSON.stringify(POLICY),
      '--reward-window-ms', String(WINDOW_MS), '--expired-reward', '0', '--snapshot-every', '10', '--partitions', String(PARTITIONS), '--session-timeout-ms', '6000', '--no-metrics'];
    const killed = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    await waitFor(() => killed.events.some((e) => e.type === 'restored'), `the first learner to start (stderr: ${killed.stderr})`, 60_000);
    const survivor = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    const lastAssigned = (learner: ServiceProcess<BanditLearnerEvent>): readonly number[] => (learner.events.filter((e): e is Assigned => e.type === 'assigned').at(-1)?.partitions ?? []);
    await waitFor(() => lastAssigned(killed).length === 2 && lastAssigned(survivor).length === 2, `the two learners to share the partitions (${lastAssigned(killed)} / ${lastAssigned(survivor)}; stderr: ${survivor.stderr})`, 60_000);
    const moved = [...lastAssigned(killed)];
    const deciders = await Promise.all([0, 1].map(() => BanditDecider.start(port, { decisionsTopic: topics.decisions, policyTopic: stateTopic, model: 'live' })));
    await Promise.all(deciders.map((d) => d.loaded()));

    const environment = Rng.fromSeed(23);
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

    let killedAt = -1;
    let unrewarded = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const contexts = Array.from({ length: PER_ROUND }, () => [1, environment.normal(), environment.normal()]);
      const made = (await Promise.all(deciders.map((decider, k) => Promise.all(contexts.filter((_, i) => i % 2 === k).map((x) => decider.decide(x)))))).flat();
      answered.push(...made);
      const rewarded = made.filter((_, i) => (answered.length - made.length + i) % 9 !== 0);
      unrewarded += made.length - rewarded.length;
      const kill = killedAt < 0 && killed.events.filter((e) => e.type === 'checkpoint' && e.learned > 0).length >= 2;
      const sending = (async () => { for (let start = 0; start < rewarded.length; start += 10) await sendRewards(rewarded.slice(start, start + 10)); })();
      if (kill) {
        await new Promise((resolve) => setTimeout(resolve, 20 + environment.nextDouble() * 200));
        expect((await killed.kill()).signal).toBe('SIGKILL');
        killedAt = round;
      }
      await sending;
    }
    expect(killedAt, 'the learner was killed mid-stream').toBeGreaterThanOrEqual(0);
    expect(killedAt).toBeLessThan(ROUNDS - 1);
    expect(unrewarded).toBeGreaterThan(0);

    // No decision lost: every answered one is logged, ids unique.
    const logged = (await admin.fetchTopicOffsets(topics.decisions)).reduce((sum, o) => sum + Number(o.high), 0);
    expect(logged).toBe(answered.length);
    const records = await readRecords(port, topics.decisions, logged);
    const byId = new Map(records.map((r) => [r.key!, JSON.parse(r.value!.toString()) as LoggedDecision]));
    expect(byId.size).toBe(logged);
    for (const d of answered) expect(byId.get(d.decisionId)).toEqual(d);

    // The survivor takes the killed learner's partitions with their state, and resolves every decision once (the unrewarded ones when their window closes).
    const done = (e: BanditLearnerEvent): boolean => e.type === 'published' && e.pending === 0 && e.learned === logged && e.partitions.length === PARTITIONS;
    await waitFor(() => survivor.events.some(done), `the survivor to resolve all ${logged} decisions (stderr: ${survivor.stderr})`, WINDOW_MS + 90_000);
    expect([...lastAssigned(survivor)].sort()).toEqual([0, 1, 2, 3]);
    const takenOver = survivor.events.filter((e): e is Restored => e.type === 'restored' && moved.includes(e.partition));
    expect(takenOver.length, 'the survivor restored the killed learner\'s partitions').toBeGreaterThanOrEqual(moved.length);
    expect(takenOver.every((e) => e.fromSnapshot), 'from their state').toBe(true);
    expect(takenOver.some((e) => e.pending > 0), 'with decisions pending in it (whose window closed at the survivor)').toBe(true);
    expect(survivor.events.some((e) => e.type === 'expiring'), 'the survivor closed reward windows').toBe(true);
    expect(await survivor.stop()).toEqual({ code: 0, signal: null });
    const unexpected = survivor.stderr.split('\n').filter((line) => line !== '' && !line.includes('The group is rebalancing, so a rejoin is needed'));
    expect(unexpected, 'nothing on stderr but the client\'s rejoin notices of the rebalances').toEqual([]);
    for (const d of deciders) await d.stop();
    await producer.disconnect();
    expect((await admin.fetchTopicOffsets(`${topics.rewards}.dlq`)).map((o) => Number(o.high)), 'no reward dead-lettered (none duplicate, late or unknown)').toEqual(new Array<number>(PARTITIONS).fill(0));

    const store = await KafkaSnapshotStore.open(port, { topic: stateTopic });
    const { snapshot: merged, meta } = decodeSnapshot((await store.latest('live/global'))!);
    await store.close();
    expect(meta).toMatchObject({ rewards: logged, pending: 0, partitions: [0, 1, 2, 3] });
    const perArm = new Array<number>(ARMS).fill(0);
    for (const d of byId.values()) perArm[d.arm]++;
    expect(ThompsonPolicy.restore(merged).models.map((m) => m.recordsSeen), 'every decision learned once, on its arm').toEqual(perArm);

    // One learner over all four partitions, uninterrupted (its window never closes: it applies the expiry markers from the log).
    const referenceStore = await KafkaSnapshotStore.open(port, { topic: `${prefix}.reference` });
    const reference = new BanditLearner(port, referenceStore, { decisionsTopic: topics.decisions, rewardsTopic: topics.rewards, model: 'reference', createPolicy: () => createBanditPolicy(POLICY), rewardWindowMs: 1e9 });
    let failure: Error | undefined;
    await reference.start((error) => { failure = error; });
    await waitFor(() => reference.partitions.length === PARTITIONS && reference.learned === logged && reference.pendingCount === 0, `the reference learner (${reference.learned} of ${logged})`, 90_000);
    const uninterrupted = reference.currentPolicy.snapshot();
    await reference.stop();
    await referenceStore.close();
    expect(failure).toBeUndefined();
    expect(Object.keys(merged.arrays).sort()).toEqual(Object.keys(uninterrupted.arrays).sort());
    for (const [name, values] of Object.entries(uninterrupted.arrays)) expect(Array.from(merged.arrays[name]), name).toEqual(Array.from(values));
    expect(merged.header.models).toEqual(uninterrupted.header.models);
  }, 400_000);
});
