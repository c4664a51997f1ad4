import { decodeChunk } from '../connectors/kafka/decode-chunk.js';
import { encodeChunk } from '../connectors/kafka/encode-chunk.js';
import type { PortMessage } from '../connectors/kafka/kafka-port.js';
import { RecordDecoder } from '../connectors/kafka/record-decoder.js';
import { Rng } from '../src/rng/rng.js';
import { medianCpuMs } from './measure.js';

/**
 * What a Kafka partition's chunk costs the main thread (no broker): decoding 1,000 JSON values
 * (p = 10) into a packed chunk there (`decodeChunk`: `worker: false`, or a custom decoder such as
 * Avro's), against packing the raw values into one transferable buffer for the partition's worker
 * to decode (`encodeChunk`: the default with workers). Median CPU time of 200 chunks, per record.
 */
const D = 10;
const N = 1_000;
const REPEATS = 200;

const rng = Rng.fromSeed(5);
const messages: PortMessage[] = Array.from({ length: N }, (_, i) => {
  const x = Array.from({ length: D }, (_, j) => (j === 0 ? 1 : Math.round(rng.normal() * 1e6) / 1e6));
  return { key: Buffer.from(`r${i}`), value: Buffer.from(JSON.stringify({ x, y: i % 2 })), offset: String(i), timestamp: '0' };
});
const schema = { dim: D, task: 'classification' as const };
const decoder = new RecordDecoder(schema);
const x = new Float64Array(N * D);
const y = new Float64Array(N);
const perRecordUs = (ms: number): number => (ms * 1000) / (REPEATS * N);
const decoded = perRecordUs(medianCpuMs(() => {
  for (let r = 0; r < REPEATS; r++) decodeChunk(messages, 0, N, null, { topic: 't', partition: 0, dim: D, decoder, x, y, bad: () => undefined });
}));
const packed = perRecordUs(medianCpuMs(() => {
  for (let r = 0; r < REPEATS; r++) encodeChunk(messages, 0, N, null, { topic: 't', partition: 0, decoder: { kind: 'kafka-json', config: schema, weighted: false } });
}));
process.stdout.write(`main-thread CPU per Kafka record (JSON, p = ${D}, chunks of ${N}):\n`);
process.stdout.write(`  decode here (worker: false, or a custom decoder): ${decoded.toFixed(3)} µs\n`);
process.stdout.write(`  pack raw values for the worker to decode:        ${packed.toFixed(3)} µs (${(decoded / packed).toFixed(1)}× less)\n`);
