import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avsc';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confluentWireFormat } from '../../connectors/kafka/confluent-wire-format.js';
import { createKafkaPort } from '../../connectors/kafka/create-kafka-port.js';
import { SchemaRegistryClient } from '../../connectors/kafka/schema-registry-client.js';
import { startLocalKafka, type LocalKafka } from '../../scripts/local-kafka.js';
import { startSchemaRegistry, type LocalSchemaRegistry } from '../../scripts/local-schema-registry.js';
import { readmeBlocks } from '../helpers/readme-blocks.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';
import { createTopic, produceValues, unique, waitFor } from './helpers.js';

/**
 * The package as its users get it: `npm pack`, installed with rxjs into a fresh TypeScript project,
 * where the README's Kafka learner service (public imports only: `vbstream/kafka`,
 * `vbstream/monitoring`) is type-checked against the shipped declarations and run against a broker
 * that requires SASL/SCRAM, reading Avro records through a real schema registry, with its metrics
 * scraped over HTTP.
 */
const work = mkdtempSync(join(tmpdir(), 'vbstream-pack-'));
const project = join(work, 'consumer');
const N = 300;
const USER = { name: 'svc', password: 'svc-secret' };

function sh(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const devVersion = (name: string): string => (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: { [name: string]: string } }).devDependencies[name];

describe('the packed tarball in a fresh project (real broker with SASL, real schema registry)', () => {
  let files: string[];
  let broker: LocalKafka;
  let registry: LocalSchemaRegistry;
  let service: ChildProcess | undefined;

  beforeAll(async () => {
    const packed = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work], repoRoot)) as { filename: string; files: { path: string }[] }[];
    files = packed[0].files.map((f) => f.path);
    sh('mkdir', ['-p', project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'click-learner', private: true, type: 'module' }));
    sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, packed[0].filename), `rxjs@${devVersion('rxjs')}`, `typescript@${devVersion('typescript')}`, `@types/node@${devVersion('@types/node')}`], project);
    [broker, registry] = await Promise.all([startLocalKafka({ timeoutMs: PATIENCE_MS, security: { users: [USER] } }), startSchemaRegistry({ timeoutMs: PATIENCE_MS })]);
  }, 600_000);

  afterAll(async () => {
    service?.kill('SIGKILL');
    await Promise.all([broker?.stop(), registry?.stop()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('ships the compiled library, CLI, live page (uPlot bundled), dashboard, scrape config, config schema and licence; no benchmarks, examples, tests or source maps', () => {
    for (const path of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/connectors/kafka/index.js', 'dist/monitoring/index.d.ts', 'dist/operators/index.js', 'dist/connectors/file/index.js', 'dist/src/bandit/index.js', 'dist/src/bandit/index.d.ts', 'dist/bandit/kafka/index.js', 'dist/bandit/kafka/index.d.ts', 'dist/serve/index.js', 'dist/serve/index.d.ts', 'dist/cli/vbstream.js',
      'dist/wasm/dense-kernels.wasm', 'dist/src/linalg/dense-kernels-binary.js',
      'monitoring/grafana-dashboard.json', 'monitoring/prometheus.yml', 'schema/pipeline-config.schema.json', 'LICENSE', 'README.md', 'package.json',
      ...['index.html', 'live.js', 'live.css', 'uPlot.iife.min.js', 'uPlot.min.css', 'uPlot.LICENSE'].map((file) => `dist/monitoring/live/${file}`)]) expect(files).toContain(path);
    expect(files.filter((f) => /^dist\/(bench|examples|scripts|test)\/|\.map$|^src\/|^test\//.test(f))).toEqual([]);
    expect(sh('npx', ['vbstream', '--version'], project).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the installed CLI serves the live page with its bundled uPlot (no uplot package installed)', async () => {
    const run = spawn(process.execPath, [join(project, 'node_modules/vbstream/dist/cli/vbstream.js'), 'run', '--metrics-port', '0', '--rate', '2000'], { cwd: project, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let stdout = '';
      run.stdout?.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
      await waitFor(() => /live view: (\S+)\)/.test(stdout), 'the live view URL');
      const page = /live view: (\S+)\)/.exec(stdout)![1];
      for (const path of ['', 'live/live.js', 'live/uPlot.iife.min.js', 'live/uPlot.min.css']) expect((await fetch(`${page}${path}`)).status, path).toBe(200);
    } finally {
      run.kill('SIGKILL');
    }
  });

  it('every public entry point imports from the installed package, and vbstream/serve type-checks and answers POST /predict', async () => {
    const exported = Object.keys((JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: { [path: string]: unknown } }).exports);
    const modules = exported.filter((path) => !/\.(json|yml)$/.test(path)).map((path) => (path === '.' ? 'vbstream' : `vbstream/${path.slice(2)}`));
    expect(modules).toContain('vbstream/serve');
    writeFileSync(join(project, 'entry-points.mjs'), `for (const name of ${JSON.stringify(modules)}) if (Object.keys(await import(name)).length === 0) throw new Error(name + ' exports nothing');\n`);
    sh(process.execPath, ['entry-points.mjs'], project);
    writeFileSync(join(project, 'wasm-kernels.mjs'), [
      "import { gemmNt, gramAccumulate } from 'vbstream/linalg';",
      'const out = new Float64Array(4);',
      'gemmNt(out, 2, Float64Array.of(1, 2, 3, 4, 5, 6), Float64Array.of(1, 0, 1, 0, 1, 0), 2, 2, 3, false);',
      'const gram = new Float64Array(4);',
      'gramAccumulate(Float64Array.of(1, 2, 3, 4), 2, 2, gram);',
      'console.log(JSON.stringify([...out, ...gram]));',
    ].join('\n'));
    expect(JSON.parse(sh(process.execPath, ['wasm-kernels.mjs'], project))).toEqual([4, 2, 10, 5, 10, 14, 14, 20]);
    writeFileSync(join(project, 'serve-check.ts'), [
      "import { createModel } from 'vbstream';",
      "import { MemoryPosteriorSource, ScoringService, type Prediction } from 'vbstream/serve';",
      'const source = new MemoryPosteriorSource();',
      "source.publish(createModel('adf-logit', 3), 'v1');",
      "const service = new ScoringService({ source, port: 0, title: 'packed' });",
      'const port = await service.start();',
      "const response = await fetch(`http://127.0.0.1:${port}/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: [1, 0.5, -0.5] }) });",
      'const prediction = (await response.json()) as Prediction;',
      'await service.stop();',
      'process.stdout.write(JSON.stringify({ status: response.status, version: prediction.version, mean: prediction.mean }));',
    ].join('\n'));
    writeFileSync(join(project, 'tsconfig.serve.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], outDir: '.' }, files: ['serve-check.ts'] }));
    sh(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.serve.json'], project);
    const answer = JSON.parse(sh(process.execPath, ['serve-check.js'], project)) as { status: number; version: string; mean: number };
    expect(answer).toMatchObject({ status: 200, version: 'v1' });
    expect(answer.mean).toBeCloseTo(0.5, 6); // the prior: a zero mean score
  });

  it('is ESM only, as the README\'s install step says with the supported Node versions: require fails, import works', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const install = readme.slice(readme.indexOf('### 1. The library'), readme.indexOf('```ts'));
    expect(install).toContain('"type": "module"');
    const engines = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(install).toContain(`\`${engines}\``);
    const required = spawnSync(process.execPath, ['-e', "require('vbstream')"], { cwd: project, encoding: 'utf8' });
    expect(required.status).not.toBe(0);
    expect(required.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_REQUIRE_ESM/);
    const imported = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('vbstream'); console.log(typeof m.createModel);"], { cwd: project, encoding: 'utf8' });
    expect(imported.stdout).toBe('function\n');
  });

  it('the README snippets type-check under a new project\'s `tsc --init` settings against the published declarations; the Kafka service learns Avro records over SASL/SCRAM with metrics', async () => {
    const snippet = readmeBlocks().find((b) => b.file === 'kafka-service.ts');
    expect(snippet).toBeDefined();
    const snippets = readmeBlocks().filter((b) => b.language === 'ts').map((block, i) => ({ name: block.file ?? `snippet-${i}.ts`, text: block.text }));
    for (const { name, text } of snippets) writeFileSync(join(project, name), text);
    // The settings a new project starts from today (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, …), with Node's types.
    const tsc = join(project, 'node_modules/typescript/bin/tsc');
    sh(process.execPath, [tsc, '--init'], project);
    const { config } = ts.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(project, 'tsconfig.json'), 'utf8'));
    const compilerOptions = (config as { compilerOptions: { [key: string]: unknown } }).compilerOptions;
    expect(compilerOptions).toMatchObject({ strict: true, exactOptionalPropertyTypes: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'] }, files: snippets.map((s) => s.name) }));
    sh(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    expect(sh(process.execPath, ['snippet-0.js'], project).trim().split('\n').at(-1)).toBe('3 true');

    const topic = unique('clicks');
    const plain = createKafkaPort({ brokers: [broker.bootstrap], logLevel: 'nothing' });
    const admin = plain.admin();
    await admin.connect();
    await createTopic(admin, topic, 2);
    await admin.disconnect();
    const schema = { type: 'record', name: 'Click', fields: [{ name: 'age', type: 'double' }, { name: 'visits', type: 'int' }, { name: 'price', type: 'double' }, { name: 'clicked', type: 'int' }] };
    const id = await new SchemaRegistryClient({ url: registry.url }).register(`${topic}-value`, JSON.stringify(schema));
    const type = avro.Type.forSchema(schema as avro.Schema);
    const values: (Buffer | string)[] = Array.from({ length: N }, (_, i) => confluentWireFormat.encode(id, type.toBuffer({ age: 20 + (i % 50), visits: i % 7, price: (i % 13) / 4, clicked: i % 3 === 0 ? 1 : 0 })));
    values.push('{"age":1,"visits":2,"price":3,"clicked":1}', confluentWireFormat.encode(id + 1000, type.toBuffer({ age: 1, visits: 1, price: 1, clicked: 1 })));
    await produceValues(plain, topic, values, 2);

    service = spawn(process.execPath, ['kafka-service.js'], {
      cwd: project, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KAFKA_BROKERS: broker.saslBootstrap, KAFKA_USER: USER.name, KAFKA_PASSWORD: USER.password, TOPIC: topic, METRICS_HOST: '127.0.0.1', METRICS_PORT: '0', SCHEMA_REGISTRY: registry.url },
    });
    let stdout = '';
    let stderr = '';
    service.stdout?.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    service.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => service?.once('exit', (code) => resolve(code)));
    await waitFor(() => /metrics on port \d+/.test(stdout), () => `the service's metrics port (stderr: ${stderr})`);
    const metricsUrl = `http://127.0.0.1:${/metrics on port (\d+)/.exec(stdout)?.[1]}`;
    const sum = (text: string, pattern: RegExp): number => text.split('\n').filter((line) => pattern.test(line)).reduce((total, line) => total + Number(line.split(' ').at(-1)), 0);
    let scraped = '';
    await waitFor(async () => {
      scraped = await (await fetch(`${metricsUrl}/metrics`)).text();
      return sum(scraped, /^vbstream_records_total\{.*status="learned"/) === N && sum(scraped, /^vbstream_dead_letters_total\{/) === 2;
    }, () => `${N} records learned and 2 dead letters (stderr: ${stderr})`);
    expect(sum(scraped, /^vbstream_dead_letters_total\{reason="bad-avro"/)).toBe(1);
    expect(sum(scraped, /^vbstream_dead_letters_total\{reason="unknown-schema"/)).toBe(1);
    expect((await fetch(`${metricsUrl}/readyz`)).status).toBe(200);
    // Test-then-train scoring: the prequential series (the live page's learning panels) are there.
    expect(scraped).toMatch(/^vbstream_prequential_log_loss\{[^}]*\} \d/m);
    service.kill('SIGINT'); // Ctrl-C: final snapshots, commits, exit 0
    expect(await exited).toBe(0);
    service = undefined;
    expect(stderr).toBe('');
  });
});
