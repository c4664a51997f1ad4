import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import type { KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { createScoringServer, ScoringService } from '../../examples/real-time-scoring/scoring-service.js';
import { watchSnapshotTopic } from '../../examples/real-time-scoring/watch-snapshot-topic.js';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { batchFit, brokerPort, syntheticData, unique, waitFor } from './helpers.js';

const D = 4;
const KEY = snapshotKey('logit', 'global');

describe('scoring service on a Kafka snapshot topic (real broker)', () => {
  let port: KafkaPort;
  let store: KafkaSnapshotStore;
  const topic = unique('scoring-snapshots');
  beforeAll(async () => {
    port = brokerPort();
    store = await KafkaSnapshotStore.open(port, { topic });
  });
  afterAll(async () => { await store.close(); });

  const save = async (key: string, records: number, seed: number): Promise<void> => {
    const model = batchFit('vb-logit-online', syntheticData(records, D, seed, true));
    await store.save(key, encodeSnapshotEvent({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { [topic]: records }, createdAt: new Date().toISOString(), reason: 'records' }));
  };

  it('serves the first snapshot, hot-swaps a newer one under load, reports a corrupt one and keeps serving, and stops on close', async () => {
    const errors: Error[] = [];
    const service = new ScoringService(watchSnapshotTopic(port, { topic, key: KEY, family: 'vb-logit-online', dim: D, onError: (e) => errors.push(e) }));
    const server = createScoringServer(service);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/score`;
    const score = async (): Promise<{ status: number; body: { version: { sequence: number; recordsSeen: number; origin: string }; predictions: { mean: number }[] } }> => {
      const response = await fetch(url, { method: 'POST', body: JSON.stringify({ x: [1, 0.5, -0.5, 0.25] }) });
      return { status: response.status, body: await response.json() as never };
    };
    try {
      expect((await score()).status).toBe(503);
      await save(KEY, 200, 1);
      await waitFor(() => service.version() !== undefined, 'the first snapshot');
      const first = await score();
      expect(first.status).toBe(200);
      expect(first.body.version).toMatchObject({ sequence: 1, recordsSeen: 200, origin: `${topic}/0@0` });

      await save(snapshotKey('logit', 0), 50, 2);
      let load = true;
      const statuses: number[] = [];
      const sequences = new Set<number>();
      const loop = (async () => {
        while (load) {
          const answer = await score();
          statuses.push(answer.status);
          sequences.add(answer.body.version.sequence);
        }
      })();
      await waitFor(() => sequences.has(1), 'a request answered by version 1 under load');
      await save(KEY, 3000, 3);
      await waitFor(() => sequences.has(3), 'a request answered by the newer snapshot (version 3) under load');
      load = false;
      await loop;
      expect(statuses.length).toBeGreaterThan(1);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect([...sequences].sort()).toEqual([1, 3]);
      const second = await score();
      expect(second.body.version).toMatchObject({ sequence: 3, recordsSeen: 3000, origin: `${topic}/0@2` });
      expect(second.body.predictions[0].mean).not.toBe(first.body.predictions[0].mean);
      expect(errors).toEqual([]);

      await store.save(KEY, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
      await waitFor(() => errors.length > 0, 'the corrupt snapshot reported');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(SnapshotError);
      expect(errors[0].message).toContain(`${topic}/0@3`);
      const after = await score();
      expect(after.status).toBe(200);
      expect(after.body.version.sequence).toBe(3);
      expect(service.swaps).toBe(2);

      service.close();
      await save(KEY, 500, 4);
      await new Promise((r) => setTimeout(r, 1500)); // a period in which the closed service must not swap: the fixed wait is the point
      expect(service.version()?.sequence).toBe(3);
      expect(service.swaps).toBe(2);
    } finally {
      service.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
