import { murmur2 } from './murmur2.js';

/**
 * The partition Kafka's default partitioner (Java client, kafkajs `DefaultPartitioner`, librdkafka
 * `murmur2_random`) gives a keyed record: `toPositive(murmur2(key)) mod partitions`, where
 * `toPositive` clears the sign bit. Strings are hashed as their UTF-8 bytes.
 */
export function defaultPartition(key: Uint8Array | string, partitions: number): number {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  return (murmur2(bytes) & 0x7fffffff) % partitions;
}
