import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { confluentWireFormat } from '../../connectors/kafka/confluent-wire-format.js';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { SchemaRegistryClient } from '../../connectors/kafka/schema-registry-client.js';
import { startSchemaRegistry, type LocalSchemaRegistry } from '../../scripts/local-schema-registry.js';
import { repoRoot } from '../helpers/reference.js';
import { brokerPort, createTopic, produceValues, readRecords, unique } from './helpers.js';

/**
 * Issue 26, item 14, on a real broker and a real schema registry: a 19-byte Avro value whose array
 * declares 2³² − 1 items (it used to run the learner out of memory, and the restarted learner into
 * the same record) sits among good records. `vbstream run` — in a 256 MiB heap — sends it to
 * `<topic>.dlq` as `bad-avro`, learns every good record, exits cleanly, and a second run finds
 * nothing left to do (the poison's offset was committed).
 */
const N = 400;
const HEAP_MB = 256;
const work = mkdtempSync(join(repoRoot, '.avro-poison-'));
const schema = { type: 'record', name: 'Row', fields: [{ name: 'x', type: { type: 'array', items: 'double' } }, { name: 'y', type: 'double' }] };

function vbstreamRun(): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--config', 'pipeline.json'], { cwd: work, encoding: 'utf8', timeout: 180_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a 19-byte Avro bomb among good records (real broker, real schema registry)', () => {
  let registry: LocalSchemaRegistry;
  beforeAll(async () => {
    registry = await startSchemaRegistry({ timeoutMs: 120_000 });
  }, 180_000);
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('goes to <topic>.dlq as bad-avro; every good record is learned; the process stays up and does not meet it again', async () => {
    const topic = unique('avro-bomb');
    const id = await new SchemaRegistryClient({ url: registry.url }).register(`${topic}-value`, JSON.stringify(schema));
    const type = avro.Type.forSchema(schema as avro.Schema);
    const values: Buffer[] = Array.from({ length: N }, (_, i) => confluentWireFormat.encode(id, type.toBuffer({ x: [1, (i % 17) / 4], y: 0.5 + (i % 17) / 8 })));
    // Magic byte 0, the schema id, then the record: x's block count 2^32 − 1 (zig-zag varint, 5 bytes) and 9 more bytes.
    const poison = Buffer.concat([confluentWireFormat.encode(id, Buffer.from([0xfe, 0xff, 0xff, 0xff, 0x1f])), Buffer.alloc(9)]);
    expect(poison.length).toBe(19);
    values.splice(N / 2, 0, poison);
    const admin = brokerPort().admin();
    await admin.connect();
    await createTopic(admin, topic, 2);
    await admin.disconnect();
    await produceValues(brokerPort(), topic, values, 2);
    writeFileSync(join(work, 'pipeline.json'), JSON.stringify({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: `${topic}-learners`, dim: 2, untilCaughtUp: true, format: 'avro', schemaRegistry: { url: registry.url } },
      model: { family: 'vb-linear' },
      metrics: false,
    }));

    const run = vbstreamRun();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`done: ${N} records learned`);
    expect(run.stdout).toMatch(/, 1 dead letters?/);
    const [letter] = await readRecords(brokerPort(), `${topic}.dlq`, 1);
    expect(letter.headers[DEAD_LETTER_HEADERS.reason]).toBe('bad-avro');
    expect(letter.headers[DEAD_LETTER_HEADERS.detail]).toMatch(/4294967295 items/);
    expect(letter.headers[DEAD_LETTER_HEADERS.partition]).toBe('0');
    expect(letter.value).toEqual(poison);

    const again = vbstreamRun();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('done: 0 records learned');
  }, 420_000);
});
