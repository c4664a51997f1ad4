import { describe, expect, it } from 'vitest';
import { PosteriorCombiner } from '../../../connectors/kafka/posterior-combiner.js';
import { snapshotKey } from '../../../connectors/kafka/snapshot-key.js';
import { PipelineMetrics } from '../../../monitoring/pipeline-metrics.js';
import { ConfigError } from '../../../src/core/config-error.js';
import { encodeSnapshotEvent } from '../../../src/core/encode-snapshot-event.js';
import { getFamily } from '../../../src/registry.js';
import { parsePrometheusText, sampleValue } from '../../helpers/prometheus-text.js';
import { InMemorySnapshotStore } from './in-memory-kafka.js';

async function partitionSnapshot(store: InMemorySnapshotStore, partition: number, dim: number, topic = 'in'): Promise<void> {
  const model = getFamily('vb-linear').create(dim);
  model.update({ x: Float64Array.from({ length: 4 * dim }, (_, i) => Math.sin(i + partition)), y: Float64Array.of(1, 2, 3, 4), n: 4, d: dim });
  const event = { snapshot: model.snapshot(), recordsSeen: 4, positions: { [`${topic}/${partition}`]: 4 }, createdAt: '2026-01-01T00:00:00.000Z', reason: 'records' as const };
  await store.save(snapshotKey('m', partition), encodeSnapshotEvent(event, { topic, partition, nextOffset: 4 }));
}

describe('PosteriorCombiner skipped partitions (issue 14, item 11)', () => {
  it('never drops a partition silently: it lists, publishes and counts what it skipped, or refuses with requireAll', async () => {
    const store = new InMemorySnapshotStore();
    await partitionSnapshot(store, 0, 3);
    await partitionSnapshot(store, 1, 4);
    await partitionSnapshot(store, 2, 3, 'other');
    await partitionSnapshot(store, 3, 3);
    const metrics = new PipelineMetrics({ defaultMetrics: false });
    const combiner = new PosteriorCombiner(store, { model: 'm', family: 'vb-linear', dim: 3, topic: 'in', metrics });
    const combined = await combiner.combine([0, 1, 2, 3, 4]);
    expect(combined.partitions).toEqual([0, 3]);
    expect(combined.records).toBe(8);
    expect(combined.skipped.map((s) => s.partition)).toEqual([1, 2]);
    expect(combined.skipped[0].reason).toMatch(/dimension|features/);
    expect(combined.skipped[1].reason).toMatch(/"other" partition 2, not in partition 2/);
    await combiner.publish(combined);
    const { decodeSnapshot } = await import('../../../src/core/decode-snapshot.js');
    const meta = decodeSnapshot((await store.latest(snapshotKey('m', 'global')))!).meta;
    expect(meta.partitions).toEqual([0, 3]);
    expect((meta.skipped as { partition: number }[]).map((s) => s.partition)).toEqual([1, 2]);
    const samples = parsePrometheusText(await metrics.metrics());
    expect(sampleValue(samples, 'vbstream_combiner_skipped_partitions_total', { reason: 'shape' })).toBe(1);
    expect(sampleValue(samples, 'vbstream_combiner_skipped_partitions_total', { reason: 'config' })).toBe(1);
    const strict = new PosteriorCombiner(store, { model: 'm', family: 'vb-linear', dim: 3, topic: 'in', requireAll: true });
    await expect(strict.combine([0, 1])).rejects.toThrow(/cannot combine m: partition 1/);
    expect(() => new PosteriorCombiner(store, { model: 'm', family: 'vi-per', dim: 3, topic: 'in' })).toThrow(ConfigError);
  });
});
