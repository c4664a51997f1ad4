import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePipelineConfig } from '../../cli/pipeline-config.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';

const cli = join(repoRoot, 'dist', 'cli', 'vbstream.js');
const work = mkdtempSync(join(tmpdir(), 'vbstream-kafka-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const kafka = { type: 'kafka', brokers: ['127.0.0.1:1'], topic: 't', groupId: 'g', dim: 3 };

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Kafka pipeline config: every key honoured or refused with its path (issue 14, item 9)', () => {
  it.each([
    [{ snapshots: { dir: './snaps' } }, /snapshots\.dir: a Kafka source snapshots to the compacted topic/],
    [{ snapshots: { keep: 3 } }, /snapshots\.keep: the compacted snapshot topic keeps the latest/],
    [{ minibatch: { size: 100, maxWaitMs: 20 } }, /minibatch\.maxWaitMs: a Kafka source learns each fetched chunk/],
    [{ model: { family: 'vb-logit-online', options: { priorPrecison: 1 } } }, /model\.options\.priorPrecison: unknown vb-logit-online option; did you mean "priorPrecision"\?/],
  ])('refuses %j', (extra, pattern) => {
    expect(() => parsePipelineConfig({ source: kafka, model: { family: 'vb-logit-online' }, ...extra }, 'test')).toThrow(pattern);
  });

  it('source.client picks the Kafka client library: kafkajs or platformatic; another is refused with its path', () => {
    expect(parsePipelineConfig({ source: { ...kafka, client: 'platformatic' }, model: { family: 'vb-linear' } }, 'test').source).toMatchObject({ client: 'platformatic' });
    expect(() => parsePipelineConfig({ source: { ...kafka, client: 'rdkafka' }, model: { family: 'vb-linear' } }, 'test')).toThrow(/source\.client/);
  });

  it('accepts snapshots.everyMs and schema.weight (the Kafka learner honours them), and a misspelt option of a file pipeline is refused too', () => {
    const config = parsePipelineConfig({ source: kafka, schema: { weight: 'w' }, model: { family: 'vb-linear' }, snapshots: { everyMs: 500 } }, 'test');
    expect(config.snapshots.everyMs).toBe(500);
    expect(config.schema.weight).toBe('w');
    expect(() => parsePipelineConfig({ source: { type: 'synthetic' }, model: { family: 'vb-linear', options: { maxIte: 5 } } }, 'test')).toThrow(/model\.options\.maxIte: .*did you mean "maxIter"/);
  });
});

describe('connection failures are one clear line, fast (issue 14, item 14)', () => {
  it('vbstream run with no broker says what failed, where and what to check, and exits 1 (no client stack, no minute of retries)', async () => {
    const port = await closedPort();
    const path = join(work, 'kafka.json');
    writeFileSync(path, JSON.stringify({ source: { ...kafka, brokers: [`127.0.0.1:${port}`] }, model: { family: 'vb-linear' }, metrics: false }));
    // The one line comes from reachBrokers, which gives up after its own bound (test/connectors/kafka/reach-brokers.test.ts).
    const run = spawnSync(process.execPath, [cli, 'run', '--config', path], { encoding: 'utf8', timeout: PATIENCE_MS });
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`cannot reach Kafka at 127\\.0\\.0\\.1:${port} .*check the broker addresses`));
  });

  it('a bad model option or family is refused before anything connects', () => {
    const path = join(work, 'bad-option.json');
    writeFileSync(path, JSON.stringify({ source: kafka, model: { family: 'vb-linear', options: { tol: -1 } }, metrics: false }));
    const run = spawnSync(process.execPath, [cli, 'run', '--config', path], { encoding: 'utf8', timeout: PATIENCE_MS });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/must be a finite positive number \(field tol, value -1\)/);
    const combine = spawnSync(process.execPath, [cli, 'kafka:combine', '--brokers', '127.0.0.1:1', '--topic', 't', '--family', 'nope', '--dim', '3'], { encoding: 'utf8', timeout: PATIENCE_MS });
    expect(combine.status).toBe(1);
    expect(combine.stderr).toMatch(/unknown model family "nope"/);
    const notAdditive = spawnSync(process.execPath, [cli, 'kafka:combine', '--brokers', '127.0.0.1:1', '--topic', 't', '--family', 'vi-per', '--dim', '3'], { encoding: 'utf8', timeout: PATIENCE_MS });
    expect(notAdditive.stderr).toMatch(/family vi-per is not additive/);
  });
});
