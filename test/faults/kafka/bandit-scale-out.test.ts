import { describe, expect, it } from 'vitest';
import { BanditDecider } from '../../../bandit/kafka/bandit-decider.js';
import type { BanditLearnerEvent } from '../../../bandit/kafka/bandit-learner-event.js';
import type { BanditPolicyConfig } from '../../../bandit/kafka/create-bandit-policy.js';
import type { LoggedDecision } from '../../../bandit/kafka/logged-decision.js';
import { KafkaSnapshotStore } from '../../../connectors/kafka/kafka-snapshot-store.js';
import { ThompsonPolicy } from '../../../src/bandit/thompson-policy.js';
import { decodeSnapshot } from '../../../src/core/decode-snapshot.js';
import { PATIENCE_MS } from '../../helpers/wait-for.js';
import { ServiceProcess, suiteBroker, unique, waitFor } from '../../kafka/helpers.js';
import { banditTopics, expectUninterruptedPolicy, learnerServiceArgs, loggedDecisions, LogisticRewardWorld, publishedPolicy } from './bandit-fault-world.js';

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
    const topics = banditTopics(unique('kbandit-scale'));
    const learnerArgs = learnerServiceArgs(topics, POLICY, { windowMs: WINDOW_MS, snapshotEvery: 10, partitions: PARTITIONS });
    const killed = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    await waitFor(() => killed.events.some((e) => e.type === 'restored'), () => `the first learner to start (stderr: ${killed.stderr})`);
    const survivor = new ServiceProcess<BanditLearnerEvent>(learnerArgs, 'bandit:learn');
    const lastAssigned = (learner: ServiceProcess<BanditLearnerEvent>): readonly number[] => (learner.events.filter((e): e is Assigned => e.type === 'assigned').at(-1)?.partitions ?? []);
    await waitFor(() => lastAssigned(killed).length === 2 && lastAssigned(survivor).length === 2, () => `the two learners to share the partitions (${lastAssigned(killed)} / ${lastAssigned(survivor)}; stderr: ${survivor.stderr})`);
    const moved = [...lastAssigned(killed)];
    const deciders = await Promise.all([0, 1].map(() => BanditDecider.start(port, { decisionsTopic: topics.decisions, policyTopic: topics.state, model: 'live' })));
    await Promise.all(deciders.map((d) => d.loaded()));

    const world = await LogisticRewardWorld.open(port, topics.rewards, 23);
    const answered: LoggedDecision[] = [];

    let killedAt = -1;
    let unrewarded = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const contexts = Array.from({ length: PER_ROUND }, () => world.context());
      const made = (await Promise.all(deciders.map((decider, k) => Promise.all(contexts.filter((_, i) => i % 2 === k).map((x) => decider.decide(x)))))).flat();
      answered.push(...made);
      const rewarded = made.filter((_, i) => (answered.length - made.length + i) % 9 !== 0);
      unrewarded += made.length - rewarded.length;
      const kill = killedAt < 0 && killed.events.filter((e) => e.type === 'checkpoint' && e.learned > 0).length >= 2;
      const sending = (async () => { for (let start = 0; start < rewarded.length; start += 10) await world.sendRewards(rewarded.slice(start, start + 10)); })();
      if (kill) {
        await new Promise((resolve) => setTimeout(resolve, 20 + world.environment.nextDouble() * 200));
        expect((await killed.kill()).signal).toBe('SIGKILL');
        killedAt = round;
      }
      await sending;
    }
    expect(killedAt, 'the learner was killed mid-stream').toBeGreaterThanOrEqual(0);
    expect(killedAt).toBeLessThan(ROUNDS - 1);
    expect(unrewarded).toBeGreaterThan(0);

    // No decision lost: every answered one is logged, ids unique.
    const { logged, byId } = await loggedDecisions(port, admin, topics.decisions);
    expect(logged).toBe(answered.length);
    for (const d of answered) expect(byId.get(d.decisionId)).toEqual(d);

    // The survivor takes the killed learner's partitions with their state, and resolves every decision once (the unrewarded ones when their window closes).
    const done = (e: BanditLearnerEvent): boolean => e.type === 'published' && e.pending === 0 && e.learned === logged && e.partitions.length === PARTITIONS;
    await waitFor(() => survivor.events.some(done), () => `the survivor to resolve all ${logged} decisions (stderr: ${survivor.stderr})`, WINDOW_MS + PATIENCE_MS);
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
    await world.close();
    expect((await admin.fetchTopicOffsets(`${topics.rewards}.dlq`)).map((o) => Number(o.high)), 'no reward dead-lettered (none duplicate, late or unknown)').toEqual(new Array<number>(PARTITIONS).fill(0));

    const { snapshot: merged, meta } = await publishedPolicy(port, topics.state);
    // Each partition's pending chunks are those of its head: whatever the killed learner left half written was removed.
    const stateStore = await KafkaSnapshotStore.open(port, { topic: topics.state });
    const keys = await stateStore.keys();
    for (let p = 0; p < PARTITIONS; p++) {
      const head = decodeSnapshot((await stateStore.latest(`live/learner/${p}`))!).meta as { pendingChunks: { id: string; count: number } };
      const chunks = keys.filter((key) => key.startsWith(`live/learner/${p}/pending/`)).sort();
      expect(chunks, `partition ${p}`).toEqual(Array.from({ length: head.pendingChunks.count }, (_, i) => `live/learner/${p}/pending/${head.pendingChunks.id}/${i}`).sort());
    }
    await stateStore.close();
    expect(meta).toMatchObject({ rewards: logged, pending: 0, partitions: [0, 1, 2, 3] });
    const perArm = new Array<number>(ARMS).fill(0);
    for (const d of byId.values()) perArm[d.arm]++;
    expect(ThompsonPolicy.restore(merged).models.map((m) => m.recordsSeen), 'every decision learned once, on its arm').toEqual(perArm);

    // One learner over all four partitions, uninterrupted.
    await expectUninterruptedPolicy(port, topics, POLICY, logged, PARTITIONS, merged);
  }, 400_000);
});
