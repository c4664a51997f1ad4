import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { confluentWireFormat } from '../../connectors/kafka/confluent-wire-format.js';
import { SyntheticGenerator } from '../../connectors/file/synthetic-generator.js';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { snapshotKey } from '../../connectors/kafka/snapshot-key.js';
import { SchemaRegistryClient } from '../../connectors/kafka/schema-registry-client.js';
import { startSchemaRegistry, type LocalSchemaRegistry } from '../../scripts/local-schema-registry.js';
import { restoreSnapshotEvent } from '../../src/restore-snapshot-event.js';
import { readmeBlocks } from '../helpers/readme-blocks.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';
import { brokerPort, createTopic, produceValues, readRecords, unique } from './helpers.js';

/**
 * The README's `vbstream run` over Kafka, as written there (only the broker address is this test's),
 * the same pipeline reading Avro through a real schema registry, and that pipeline meeting a 19-byte
 * Avro bomb (issue 26, item 14).
 */
const work = mkdtempSync(join(repoRoot, '.doc-test-'));
const N = 500;
const record = (i: number) => ({ age: 20 + (i % 40), visits: i % 9, price: (i % 11) / 2, clicked: i % 4 === 0 ? 1 : 0 });

/** `vbstream run --config <config>` in the work folder; `nodeArgs` go to node (a heap limit). */
function vbstreamRun(config: string, nodeArgs: readonly string[] = []): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...nodeArgs, join(repoRoot, 'dist/cli/vbstream.js'), 'run', '--config', config], { cwd: work, encoding: 'utf8', timeout: PATIENCE_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the README Kafka pipeline (real broker, real schema registry)', () => {
  let registry: LocalSchemaRegistry;
  beforeAll(async () => {
    registry = await startSchemaRegistry({ timeoutMs: PATIENCE_MS });
  });
  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the README walkthrough as written: kafka:produce writes named fields, `vbstream run --config kafka-pipeline.json` learns every record, with the intercept', async () => {
    const bootstrap = inject('kafkaBootstrap');
    const blocks = readmeBlocks();
    const at = blocks.findIndex((b) => b.file === 'kafka-pipeline.json');
    writeFileSync(join(work, 'kafka-pipeline.json'), blocks[at].text.replaceAll('localhost:9092', bootstrap));
    const walkthrough = blocks.slice(at + 1).find((b) => b.language === 'sh');
    const commands = walkthrough!.text.split('\n').filter((line) => line.startsWith('npx vbstream '));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    const outputs = commands.map((command) => {
      const args = command.replace('npx vbstream ', '').replaceAll('localhost:9092', bootstrap).split(/\s+/);
      const result = spawnSync(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), ...args], { cwd: work, encoding: 'utf8', timeout: PATIENCE_MS });
      expect(result.stderr, command).toBe('');
      expect(result.status, command).toBe(0);
      return result.stdout;
    });
    const produced = Number(/produced ([\d,]+) records/.exec(outputs[0])![1].replaceAll(',', ''));
    expect(produced).toBeGreaterThan(0);
    const run = outputs.at(-1)!;
    expect(run).toContain(`done: ${produced.toLocaleString('en-US')} records learned`);
    expect(run).toMatch(/, 0 dead letters/);
    expect(run).toMatch(/\nstopping: learning the [\d,]+ queued records, then a final snapshot and commit per partition/);
    // It learned the generator's truth, intercept included: its predictions of fresh synthetic rows are close to the true probabilities.
    const config = JSON.parse(blocks[at].text) as { source: { topic: string }; model: { family: string } };
    const store = await KafkaSnapshotStore.open(brokerPort(), { topic: `${config.source.topic}.snapshots` });
    const bytes = await store.latest(snapshotKey(`${config.model.family}@${config.source.topic}`, 0));
    await store.close();
    const { model } = restoreSnapshotEvent(bytes as Uint8Array, 'the snapshot topic');
    const { truth } = new SyntheticGenerator({ kind: 'logistic', dim: 4, seed: 1 }); // kafka:produce's default seed; the bias column and one feature per name
    const generator = new SyntheticGenerator({ kind: 'logistic', dim: 4, seed: 99 });
    const x = new Float64Array(4);
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      generator.next(x);
      let logit = 0;
      for (let j = 0; j < 4; j++) logit += truth[j] * x[j];
      worst = Math.max(worst, Math.abs(model.predict(x).mean - 1 / (1 + Math.exp(-logit))));
    }
    expect(worst).toBeLessThan(0.1);
  });

  it('the same pipeline with format "avro" reads records through the schema registry, evolved writer schemas resolved to the reader schema', async () => {
    const topic = unique('clicks-avro');
    const v1 = { type: 'record', name: 'Click', fields: [{ name: 'age', type: 'double' }, { name: 'visits', type: 'int' }, { name: 'price', type: 'double' }, { name: 'clicked', type: 'int' }] };
    const v2 = { ...v1, fields: [...v1.fields, { name: 'campaign', type: 'string', default: '' }] };
    const client = new SchemaRegistryClient({ url: registry.url });
    const ids = [await client.register(`${topic}-value`, JSON.stringify(v1)), await client.register(`${topic}-value`, JSON.stringify(v2))];
    const types = [avro.Type.forSchema(v1 as avro.Schema), avro.Type.forSchema(v2 as avro.Schema)];
    const admin = brokerPort().admin();
    await admin.connect();
    await createTopic(admin, topic, 2);
    await admin.disconnect();
    await produceValues(brokerPort(), topic, Array.from({ length: N }, (_, i) => confluentWireFormat.encode(ids[i % 2], types[i % 2].toBuffer({ ...record(i), campaign: 'spring' }))), 2);
    writeFileSync(join(work, 'reader.avsc'), JSON.stringify(v1));
    writeFileSync(join(work, 'avro-pipeline.json'), JSON.stringify({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: `${topic}-learners`, dim: 3, untilCaughtUp: true, format: 'avro', schemaRegistry: { url: registry.url, readerSchemaFile: 'reader.avsc' } },
      schema: { features: ['age', 'visits', 'price'], label: 'clicked' },
      model: { family: 'vb-logit-online' },
      metrics: { port: 0 },
    }));
    const run = vbstreamRun('avro-pipeline.json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Avro via');
    expect(run.stdout).toContain(`done: ${N} records learned`);
    expect(run.stdout).toMatch(/, 0 dead letters/);
  });
  it('an Avro value of 19 bytes declaring 2^32 − 1 array items goes to <topic>.dlq as bad-avro; every good record is learned in a 256 MiB heap, and a second run finds nothing left', async () => {
    const topic = unique('avro-bomb');
    const schema = { type: 'record', name: 'Row', fields: [{ name: 'x', type: { type: 'array', items: 'double' } }, { name: 'y', type: 'double' }] };
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
    writeFileSync(join(work, 'avro-bomb.json'), JSON.stringify({
      source: { type: 'kafka', brokers: [inject('kafkaBootstrap')], topic, groupId: `${topic}-learners`, dim: 2, untilCaughtUp: true, format: 'avro', schemaRegistry: { url: registry.url } },
      model: { family: 'vb-linear' },
      metrics: false,
    }));
    const run = vbstreamRun('avro-bomb.json', ['--max-old-space-size=256']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`done: ${N} records learned`);
    expect(run.stdout).toMatch(/, 1 dead letters/);
    const [letter] = await readRecords(brokerPort(), `${topic}.dlq`, 1);
    expect(letter.headers[DEAD_LETTER_HEADERS.reason]).toBe('bad-avro');
    expect(letter.headers[DEAD_LETTER_HEADERS.detail]).toMatch(/4294967295 items/);
    expect(letter.headers[DEAD_LETTER_HEADERS.partition]).toBe('0');
    expect(letter.value).toEqual(poison);
    const again = vbstreamRun('avro-bomb.json', ['--max-old-space-size=256']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('done: 0 records learned');
  }, 420_000);
});
