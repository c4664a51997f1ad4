import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VbLinearModel } from '../../src/models/vb-linear/family.js';
import type { AdminPort, KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { PosteriorCombiner } from '../../connectors/kafka/posterior-combiner.js';
import { readGlobalPosterior } from '../../connectors/kafka/read-global-posterior.js';
import { expectClose } from '../helpers/close.js';
import { batchFit, brokerPort, createTopic, ServiceProcess, produceValues, type ProducedData, recordJson, snapshotsAtEnd, syntheticData, unique, waitFor } from './helpers.js';

const N = 40_000;
const D = 5;
const TIGHT = { rel: 1e-10, absOfMax: 1e-14 };

describe('learner service processes against the real broker (vb-linear, exact)', () => {
  let port: KafkaPort;
  let admin: AdminPort;
  let topic: string;
  let data: ProducedData;
  let reference: VbLinearModel;

  beforeAll(async () => {
    port = brokerPort();
    admin = port.admin();
    await admin.connect();
    topic = unique('crash');
    await createTopic(admin, topic, 4);
    data = syntheticData(N, D, 21);
    await produceValues(port, topic, Array.from({ length: N }, (_, i) => recordJson(data, i)), 4);
    reference = batchFit('vb-linear', data) as VbLinearModel;
  });
  afterAll(async () => { await admin.disconnect(); });

  /** Waits for every partition's snapshot to reach the end, then checks the merged posterior against the batch fit. */
  async function expectExactFinalPosterior(t: string, snapshotTopic: string, n: number, expected: VbLinearModel): Promise<void> {
    const store = await KafkaSnapshotStore.open(port, { topic: snapshotTopic });
    try {
      await waitFor(() => snapshotsAtEnd(admin, store, t, 'lin'), 'snapshots at the end of every partition');
      const global = await new PosteriorCombiner(store, { model: 'lin', family: 'vb-linear', dim: D, topic: t }).combine([0, 1, 2, 3]);
      expect(global.records).toBe(n);
      const a = (global.model as VbLinearModel).posterior();
      const b = expected.posterior();
      expectClose(a.w, b.w, TIGHT, 'w_N');
      expectClose(a.V, b.V, TIGHT, 'V_N');
      expectClose([a.an, a.bn], [b.an, b.bn], TIGHT, 'a_N, b_N');
    } finally {
      await store.close();
    }
  }

  const args = (group: string, snapshots: string): string[] => ['--topic', topic, '--group', group, '--model', 'lin', '--family', 'vb-linear', '--dim', String(D), '--snapshot-topic', snapshots, '--snapshot-every', '1000', '--chunk-size', '250', '--session-timeout-ms', '6000'];

  it.each([
    ['after some commits', 'committed:6'],
    ['during a snapshot write (in flight)', 'snapshot-writing:9'],
    ['after a snapshot is durable, before its commit', 'snapshot-durable:9'],
  ])('SIGKILL %s, restart: the final posterior equals an uninterrupted run (1e-10) and every record counts once', async (_, killAt) => {
    const group = unique('crash-group');
    const snapshots = unique('crash-snapshots');
    const first = new ServiceProcess([...args(group, snapshots), '--kill-at', killAt]);
    const exit = await first.exited;
    expect(exit.signal, first.stderr).toBe('SIGKILL');
    const lastWritten = first.events.filter((e) => e.type === 'snapshot-writing').at(-1);
    expect(lastWritten).toBeDefined();

    const second = new ServiceProcess(args(group, snapshots));
    await expectExactFinalPosterior(topic, snapshots, N, reference);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
    const restored = second.events.filter((e) => e.type === 'restored');
    expect(restored.some((e) => e.type === 'restored' && e.fromSnapshot && (e.nextOffset ?? 0) > 0)).toBe(true);
    if (lastWritten?.type === 'snapshot-writing') {
      const resumed = restored.find((e) => e.partition === lastWritten.partition);
      process.stdout.write(`[${killAt}] killed while writing p${lastWritten.partition}@${lastWritten.nextOffset}; restarted from ${resumed?.type === 'restored' ? resumed.nextOffset : '?'}\n`);
    }
  });

  it('scale-out: a second process joins mid-stream, the partitions are shared, and the merged posterior equals the single-process result', async () => {
    const liveTopic = unique('scale');
    await createTopic(admin, liveTopic, 4);
    const n = 48_000;
    const live = syntheticData(n, D, 31);
    const values = Array.from({ length: n }, (_, i) => recordJson(live, i));
    const group = unique('scale-group');
    const snapshots = unique('scale-snapshots');
    const processArgs = ['--topic', liveTopic, '--group', group, '--model', 'lin', '--family', 'vb-linear', '--dim', String(D), '--snapshot-topic', snapshots, '--snapshot-every', '1000', '--chunk-size', '250', '--session-timeout-ms', '6000'];
    const combiner = new ServiceProcess<{ type: 'published'; version: string; records: number }>(['--topic', liveTopic, '--model', 'lin', '--family', 'vb-linear', '--dim', String(D), '--snapshot-topic', snapshots, '--every-ms', '500'], 'kafka:combine');
    const a = new ServiceProcess(processArgs);
    const share = (p: ServiceProcess): readonly number[] => {
      const last = p.events.filter((e) => e.type === 'assigned').at(-1);
      return last?.type === 'assigned' ? last.partitions : [];
    };
    await produceValues(port, liveTopic, values.slice(0, 8000), 4);
    await waitFor(() => a.events.some((e) => e.type === 'committed'), () => `the first process to commit (stderr: ${a.stderr})`);
    // B joins while A is learning. The stream keeps flowing, 2,000 records every 250 ms (pacing, not a
    // wait), while B joins and the group rebalances; its last 8,000 records are held back until B holds
    // partitions, so B learns a part of the stream however slowly the machine lets it join.
    const b = new ServiceProcess(processArgs);
    const heldBack = n - 8000;
    for (let start = 8000; start < n; start += 2000) {
      if (start === heldBack) await waitFor(() => share(b).length > 0, () => `the second process to be assigned partitions (events: ${JSON.stringify(b.events.slice(-5))}; stderr: ${b.stderr})`);
      await produceValues(port, liveTopic, values.slice(start, start + 2000), 4);
      if (start < heldBack) await new Promise((r) => setTimeout(r, 250));
    }
    await waitFor(() => b.events.some((e) => e.type === 'committed'), () => `the second process to commit (share ${share(b)}; events: ${JSON.stringify(b.events.slice(-5))}; stderr: ${b.stderr})`);
    // Record i went to partition i mod 4 in order, so per-partition order matches the producer's.
    const expected = batchFit('vb-linear', live) as VbLinearModel;
    await expectExactFinalPosterior(liveTopic, snapshots, n, expected);
    // The combiner service publishes the global posterior; a scoring service reads it from the snapshot topic.
    const finalVersion = [0, 1, 2, 3].map((p) => `${p}:${n / 4}`).join(',');
    await waitFor(() => combiner.events.some((e) => e.version === finalVersion), 'the combiner to publish the final version');
    expect(await combiner.stop(), combiner.stderr).toEqual({ code: 0, signal: null });
    const store = await KafkaSnapshotStore.open(port, { topic: snapshots });
    const published = await readGlobalPosterior(store, 'lin');
    await store.close();
    expect(published?.version).toBe(finalVersion);
    expect(published?.records).toBe(n);
    expectClose((published?.model as VbLinearModel).posterior().w, expected.posterior().w, TIGHT, 'published w_N');
    const [exitA, exitB] = await Promise.all([a.stop(), b.stop()]);
    expect(exitA, a.stderr).toEqual({ code: 0, signal: null });
    expect(exitB, b.stderr).toEqual({ code: 0, signal: null });
    const assignmentsOfA = a.events.filter((e) => e.type === 'assigned');
    expect(assignmentsOfA.length).toBeGreaterThanOrEqual(2);
    expect(assignmentsOfA[0].type === 'assigned' && assignmentsOfA[0].partitions).toEqual([0, 1, 2, 3]);
    const shareA = share(a);
    const shareB = share(b);
    expect(shareA.length).toBeGreaterThan(0);
    expect(shareB.length).toBeGreaterThan(0);
    expect([...shareA, ...shareB].sort()).toEqual([0, 1, 2, 3]);
  });
});
