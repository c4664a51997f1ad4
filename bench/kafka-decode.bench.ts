import avro from 'avsc';
import { AvroRecordDecoder } from '../connectors/kafka/avro-record-decoder.js';
import { AvroSizeGuard } from '../connectors/kafka/avro-size-guard.js';
import { confluentWireFormat } from '../connectors/kafka/confluent-wire-format.js';
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
 * Then the same records as Avro (`{x: array<double>, y: double}`): decoding them, and the part of it
 * that proves their sizes fit before avsc reads them (`AvroSizeGuard`).
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

const avroSchema = { type: 'record', name: 'Row', fields: [{ name: 'x', type: { type: 'array', items: 'double' } }, { name: 'y', type: 'double' }] };
const avroType = avro.Type.forSchema(avroSchema as avro.Schema);
const avroMessages: PortMessage[] = messages.map((m) => ({ ...m, value: confluentWireFormat.encode(1, avroType.toBuffer(JSON.parse((m.value as Buffer).toString()) as object)) }));
const avroDecoder = new AvroRecordDecoder(schema, { registry: { schemaById: async () => JSON.stringify(avroSchema) } });
await avroDecoder.prepare(avroMessages.map((m) => m.value));
const avroDecoded = perRecordUs(medianCpuMs(() => {
  for (let r = 0; r < REPEATS; r++) decodeChunk(avroMessages, 0, N, null, { topic: 't', partition: 0, dim: D, decoder: avroDecoder, x, y, bad: () => undefined });
}));
const guard = new AvroSizeGuard(avroType);
const payloads = avroMessages.map((m) => (m.value as Buffer).subarray(confluentWireFormat.headerBytes));
const guarded = perRecordUs(medianCpuMs(() => {
  for (let r = 0; r < REPEATS; r++) for (const payload of payloads) guard.problem(payload, 65_536);
}));
process.stdout.write(`main-thread CPU per Kafka record (Avro, p = ${D}, chunks of ${N}):\n`);
process.stdout.write(`  decode here:                                     ${avroDecoded.toFixed(3)} µs\n`);
process.stdout.write(`  of which the size proof before avsc reads it:    ${guarded.toFixed(3)} µs\n`);
