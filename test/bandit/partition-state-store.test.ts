import { describe, expect, it } from 'vitest';
import type { LoggedDecision } from '../../bandit/kafka/logged-decision.js';
import { BANDIT_STATE_CODEC } from '../../bandit/kafka/bandit-state-codec.js';
import { JoinStateStore } from '../../connectors/kafka/keyed-join/join-state-store.js';
import { PendingJoins } from '../../connectors/kafka/keyed-join/pending-joins.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';

/** A store in a Map that refuses records over `limit` bytes, as a broker does. */
class LimitedStore implements SnapshotStore {
  readonly values = new Map<string, Uint8Array>();
  constructor(private readonly limit: number) {}
  async save(key: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.limit) throw new Error(`record of ${bytes.byteLength} bytes over ${this.limit}`);
    this.values.set(key, bytes.slice());
  }
  async latest(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(key);
  }
  async remove(key: string): Promise<void> {
    this.values.delete(key);
  }
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
}

const decision = (i: number): LoggedDecision => ({
  decisionId: `d-${i}`, arm: i % 3, propensity: 0.5, propensityMethod: 'exact', scores: [0.1, 0.2, 0.3], context: [1, i / 7, Math.sin(i)], decidedAt: 1_000 + i, instance: 'i', policyRewards: 0,
});

/** A policy whose snapshot (one posterior per arm, no adaptive forgetting: 4 candidates would take 4×) leaves room in a 4,096-byte record. */
function state(count: number) {
  const policy = new ThompsonPolicy({ seed: 1, arms: 3, dim: 3, model: { family: 'vb-logit-online', options: { forgetting: 'none' } } });
  const pending = new PendingJoins<LoggedDecision>(50, BANDIT_STATE_CODEC);
  for (let i = 0; i < count; i++) pending.add(decision(i), 2);
  const resolved = Math.min(20, count);
  for (let i = 0; i < resolved; i++) {
    const { logged: d } = pending.resolve(`d-${i}`, 'joined');
    policy.learn({ context: Float64Array.from(d.context), arm: d.arm }, 1);
  }
  return { model: policy, pending, loggedNext: count, outcomesNext: resolved, learned: resolved };
}

const options = { model: 'm', loggedTopic: 'd', outcomesTopic: 'r', maxRecordBytes: 4_096, remember: 50 };

/** The bandit learner's state store: the keyed join's, in the bandit's layout. */
const banditStates = (store: SnapshotStore): JoinStateStore<LoggedDecision, BanditPolicy> => new JoinStateStore(store, BANDIT_STATE_CODEC, options);

describe('JoinStateStore (bandit layout): a partition\'s learner state in records of bounded size', () => {
  it('cuts the pending decisions into chunks no record exceeds, restores them whole and removes the chunks of the state before', async () => {
    const store = new LimitedStore(4_096);
    const states = banditStates(store);
    const before = state(300);
    const encoded = states.encode(2, before);
    expect(encoded.chunks.length).toBeGreaterThan(10);
    await states.write(encoded);
    const restored = (await banditStates(store).read(2, 4))!;
    expect(restored.pending.toJson()).toEqual(before.pending.toJson());
    expect(restored.pending.status('d-3')).toBe('joined');
    expect(restored.pending.status('d-299')).toBe('pending');
    expect(restored).toMatchObject({ loggedNext: 300, outcomesNext: 20, learned: 20 });
    expect(restored.model.snapshot()).toEqual(before.model.snapshot());

    await states.write(states.encode(2, state(10)));
    const chunkKeys = [...store.values.keys()].filter((key) => key.startsWith('m/learner/2/pending/'));
    expect(chunkKeys.length).toBe(1);
    expect((await states.read(2, 4))!.pending.size).toBe(0);
    expect(await states.read(1, 4)).toBeUndefined();
  });

  it('keeps the previous state whole when a write stops before its head, and refuses a head whose chunk is gone', async () => {
    const store = new LimitedStore(4_096);
    const states = banditStates(store);
    await states.write(states.encode(0, state(100)));
    const failing = banditStates({ save: async (key, bytes) => { if (key === 'm/learner/0') throw new Error('crash'); await store.save(key, bytes); }, latest: (key) => store.latest(key) });
    await expect(failing.write(failing.encode(0, state(200)))).rejects.toThrow('crash');
    expect((await states.read(0, 1))!.loggedNext).toBe(100);
    const chunk = [...store.values.keys()].find((key) => key.startsWith('m/learner/0/pending/') && key.endsWith('/0'))!;
    for (const key of [...store.values.keys()]) if (key.startsWith('m/learner/0/pending/')) store.values.delete(key);
    expect(chunk).toBeDefined();
    await expect(states.read(0, 1)).rejects.toThrow(SnapshotError);
  });

  it('removes the chunks a crashed write left unreferenced once the next owner\'s state is durable, and no other partition\'s', async () => {
    const store = new LimitedStore(4_096);
    const states = banditStates(store);
    await states.write(states.encode(0, state(100)));
    await states.write(states.encode(3, state(100)));
    const crashing = banditStates({ save: async (key, bytes) => { if (key === 'm/learner/0') throw new Error('crash'); await store.save(key, bytes); }, latest: (key) => store.latest(key) });
    await expect(crashing.write(crashing.encode(0, state(200)))).rejects.toThrow('crash');
    await expect(crashing.write(crashing.encode(0, state(250)))).rejects.toThrow('crash');
    const chunksOf = (p: number): string[] => [...store.values.keys()].filter((key) => key.startsWith(`m/learner/${p}/pending/`));
    const ids = (p: number): Set<string> => new Set(chunksOf(p).map((key) => key.split('/')[4]));
    expect(ids(0).size, 'the state and two crashed writes').toBe(3);
    const partition3 = chunksOf(3);

    const next = banditStates(store);
    const restored = (await next.read(0, 4))!;
    expect(restored.loggedNext).toBe(100);
    expect(ids(0).size, 'nothing removed before the new state is durable').toBe(3);
    await next.write(next.encode(0, restored));
    expect(ids(0).size, 'only the new state\'s chunks').toBe(1);
    expect((await banditStates(store).read(0, 4))!.pending.toJson()).toEqual(restored.pending.toJson());
    expect(chunksOf(3)).toEqual(partition3);
  });

  it('reads the newer head when the chunks of the one it read are removed under it (a writer superseded it meanwhile)', async () => {
    const store = new LimitedStore(4_096);
    const writer = banditStates(store);
    await writer.write(writer.encode(1, state(100)));
    let superseded = false;
    const racing: SnapshotStore = {
      save: (key, bytes) => store.save(key, bytes),
      latest: async (key) => {
        if (!superseded && key.startsWith('m/learner/1/pending/')) {
          superseded = true;
          await writer.write(writer.encode(1, state(150)));
        }
        return store.latest(key);
      },
    };
    const restored = (await banditStates(racing).read(1, 4))!;
    expect(superseded).toBe(true);
    expect(restored.loggedNext).toBe(150);
    expect(restored.pending.size).toBe(130);
  });

  it('restores the single-learner layout (model/learner, pending decisions inline) as partition 0 of one', async () => {
    const store = new LimitedStore(1 << 20);
    const old = state(30);
    const meta = { decisionsTopic: 'd', rewardsTopic: 'r', decisionsOffsets: [30], rewardsOffsets: [20], learned: 20, pending: old.pending.toJson() };
    await store.save('m/learner', encodeSnapshot(old.model.snapshot(), meta as unknown as { [key: string]: JsonValue }));
    const states = banditStates(store);
    const restored = (await states.read(0, 1))!;
    expect(restored).toMatchObject({ loggedNext: 30, outcomesNext: 20, learned: 20 });
    expect(restored.pending.toJson()).toEqual(old.pending.toJson());
    expect(restored.model.snapshot()).toEqual(old.model.snapshot());
    expect(await states.read(0, 2)).toBeUndefined();
  });
});
