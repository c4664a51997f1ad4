import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultPartition } from '../../../connectors/kafka/default-partition.js';
import { murmur2 } from '../../../connectors/kafka/murmur2.js';

const require = createRequire(import.meta.url);
/** kafkajs's Java-compatible default partitioner (its `Partitioners.DefaultPartitioner`). */
const kafkajsPartitioner = (require('kafkajs') as { Partitioners: { DefaultPartitioner: () => (args: unknown) => number } }).Partitioners.DefaultPartitioner();

function kafkajsPartition(key: Buffer, partitions: number): number {
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0 }));
  return kafkajsPartitioner({ topic: 't', partitionMetadata, message: { key } });
}

describe('murmur2 and the default partition', () => {
  it('hashes like the Java client (Kafka UtilsTest.testMurmur2 vectors)', () => {
    const vectors: [string, number][] = [
      ['21', -973932308], ['foobar', -790332482], ['a-little-bit-long-string', -985981536], ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971], ['abc', 479470107],
    ];
    for (const [key, hash] of vectors) expect(murmur2(Buffer.from(key))).toBe(hash);
  });

  it('places a key where Java and kafkajs do: toPositive(murmur2) mod partitions', () => {
    expect(defaultPartition('foobar', 4)).toBe((-790332482 & 0x7fffffff) % 4);
    expect(defaultPartition('21', 7)).toBe((-973932308 & 0x7fffffff) % 7);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (bytes, partitions) => {
      const key = Buffer.from(bytes);
      expect(defaultPartition(key, partitions)).toBe(kafkajsPartition(key, partitions));
    }), { seed: 18 });
  });

  it('hashes a string key as its UTF-8 bytes', () => {
    expect(defaultPartition('clé-ü', 16)).toBe(defaultPartition(Buffer.from('clé-ü', 'utf8'), 16));
  });
});
