import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import type { KafkaPort } from '../../connectors/kafka/kafka-port.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { PipelineMetrics } from '../../monitoring/pipeline-metrics.js';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import type { ScoringEvent } from '../../serve/scoring-event.js';
import { ScoringService } from '../../serve/scoring-service.js';
import { SnapshotTopicSource } from '../../serve/snapshot-topic-source.js';
import { batchFit, brokerPort, syntheticData, unique, waitFor } from './helpers.js';

const D = 4;
const KEY = snapshotKey('logit', 0);

describe('the scoring service on a Kafka snapshot topic (real broker)', () => {
  let port: KafkaPort;
  let store: KafkaSnapshotStore;
  const topic = unique('scoring-snapshots');
  beforeAll(async () => {
    port = brokerPort();
    store = await KafkaSnapshotStore.open(port, { topic });
  });
  afterAll(async () => { await store.close(); });

  /** One partition's model as `vbstream run` saves it (its next offset: `nextOffset`). */
  const save = async (key: string, records: number, seed: number, nextOffset: number): Promise<void> => {
    const model = batchFit('vb-logit-online', syntheticData(records, D, seed, true));
    await store.save(key, encodeSnapshotEvent({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { [topic]: records }, createdAt: new Date().toISOString(), reason: 'records' }, { topic: 'events', partition: 0, nextOffset }));
  };

  it('serves the first snapshot, hot-swaps a newer one under load, refuses a corrupt one and keeps serving, and stops following on stop', async () => {
    const events: ScoringEvent[] = [];
    const source = new SnapshotTopicSource(port, { topic, model: 'logit', partition: 0 });
    const service = new ScoringService({ source, family: 'vb-logit-online', dim: D, port: 0, metrics: new PipelineMetrics({ defaultMetrics: false }), onEvent: (e) => events.push(e) });
    const url = `http://127.0.0.1:${await service.start()}/predict`;
    const score = async (): Promise<{ status: number; body: { version: string; mean: number } }> => {
      const response = await fetch(url, { method: 'POST', body: JSON.stringify({ x: [1, 0.5, -0.5, 0.25] }) });
      return { status: response.status, body: await response.json() as never };
    };
    const swaps = () => events.filter((e) => e.type === 'posterior');
    try {
      expect((await score()).status).toBe(503);
      await save(KEY, 200, 1, 200);
      await waitFor(() => service.posterior.current !== undefined, 'the first snapshot');
      const first = await score();
      expect(first.status).toBe(200);
      expect(first.body.version).toBe('0:200');
      expect(swaps()[0]).toMatchObject({ records: 200, origin: `${topic}/0@0` });

      await save(snapshotKey('logit', 1), 50, 2, 50);
      let load = true;
      const statuses: number[] = [];
      const versions = new Set<string>();
      const loop = (async () => {
        while (load) {
          const answer = await score();
          statuses.push(answer.status);
          versions.add(answer.body.version);
        }
      })();
      await waitFor(() => versions.has('0:200'), 'a request answered by 0:200 under load');
      await save(KEY, 3000, 3, 3000);
      await waitFor(() => versions.has('0:3000'), 'a request answered by the newer snapshot under load');
      load = false;
      await loop;
      expect(statuses.length).toBeGreaterThan(1);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect([...versions].sort()).toEqual(['0:200', '0:3000']);
      const second = await score();
      expect(swaps()[1]).toMatchObject({ version: '0:3000', records: 3000, origin: `${topic}/0@2` });
      expect(second.body.mean).not.toBe(first.body.mean);
      expect(events.filter((e) => e.type === 'refused')).toEqual([]);

      await store.save(KEY, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
      await waitFor(() => events.some((e) => e.type === 'refused'), 'the corrupt snapshot refused');
      expect(events.filter((e) => e.type === 'refused')).toEqual([expect.objectContaining({ origin: `${topic}/0@3` })]);
      const after = await score();
      expect(after.status).toBe(200);
      expect(after.body.version).toBe('0:3000');
      expect(service.posterior.swaps).toBe(2);

      await service.stop();
      await save(KEY, 500, 4, 3500);
      await new Promise((r) => setTimeout(r, 1500)); // a period in which the stopped service must not swap: the fixed wait is the point
      expect(service.posterior.current?.version).toBe('0:3000');
      expect(service.posterior.swaps).toBe(2);
    } finally {
      await service.stop();
    }
  });
});
