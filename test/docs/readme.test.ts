import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeBlocks, readmeCommands, transpileSnippet } from '../helpers/readme-blocks.js';
import { repoRoot } from '../helpers/reference.js';
import { PATIENCE_MS } from '../helpers/wait-for.js';

/**
 * The README's every snippet and command, run as a reader would. Snippets run in a folder inside the
 * repository, so `import … from 'vbstream'` resolves to this package (its self-reference, as an
 * installed package would). Commands that need a Kafka broker, a fresh machine or the npm registry
 * run elsewhere, each named below with the test that runs it.
 */
const RUN_ELSEWHERE: { readonly [command: string]: string } = {
  'npm install vbstream rxjs': 'test/kafka/packed-tarball.test.ts installs the packed tarball and rxjs into a fresh project',
  'npx vbstream kafka:produce --brokers localhost:9092 --topic clicks --synthetic 20000 --features age,visits,price --label clicked': 'test/kafka/readme-kafka.test.ts runs the walkthrough against the local broker',
  'npx vbstream run --config kafka-pipeline.json': 'test/kafka/readme-kafka.test.ts runs it against the local broker',
  'bash scripts/setup.sh': 'CI (.ci/run) runs it on a clean clone',
  'npm test': 'CI (.ci/run) runs it; this test is part of it',
};
const KAFKA_FILES = new Set(['kafka-pipeline.json', 'kafka-service.ts']);

const work = mkdtempSync(join(repoRoot, '.doc-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const blocks = readmeBlocks();
for (const block of blocks) if (block.file !== undefined) writeFileSync(join(work, block.file), block.text);

function run(command: string, args: readonly string[], cwd = work): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: PATIENCE_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('README', () => {
  it('has only blocks this test knows how to run', () => {
    for (const block of blocks) expect(['sh', 'ts', 'json'], `a \`\`\`${block.language} block`).toContain(block.language);
    for (const block of blocks.filter((b) => b.language === 'json')) expect(() => JSON.parse(block.text), block.file).not.toThrow();
  });

  it('type-checks every TypeScript snippet against the public entry points', () => {
    const files = blocks.filter((b) => b.language === 'ts').map((block, i) => {
      const name = block.file ?? `snippet-${i}.ts`;
      writeFileSync(join(work, name), block.text);
      return name;
    });
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], customConditions: ['vbstream-source'], typeRoots: [join(repoRoot, 'node_modules/@types')] },
      files,
    }));
    const checked = run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('type-checks every TypeScript snippet under the settings `tsc --init` writes for a new project (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, …) against the built declarations', () => {
    const init = join(work, 'init');
    mkdirSync(init, { recursive: true });
    const written = run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '--init'], init);
    expect(written.status).toBe(0);
    const { config, error } = ts.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(init, 'tsconfig.json'), 'utf8'));
    expect(error).toBeUndefined();
    const compilerOptions = (config as { compilerOptions: { [key: string]: unknown } }).compilerOptions;
    expect(compilerOptions).toMatchObject({ strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true });
    const files = blocks.filter((b) => b.language === 'ts').map((block, i) => {
      const name = `strict-${block.file ?? `snippet-${i}.ts`}`;
      writeFileSync(join(work, name), block.text);
      return name;
    });
    // The new project's own settings; only what a project using Node's APIs adds (its types) and no output.
    writeFileSync(join(work, 'tsconfig.strict.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, types: ['node'], typeRoots: [join(repoRoot, 'node_modules/@types')], noEmit: true }, files }));
    const checked = run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.strict.json']);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('lists every entry point of package.json "exports" in its Entry points table, and only those', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Entry points'), readme.indexOf('\n## ', readme.indexOf('## Entry points') + 1));
    const listed = section.split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => [...line.split(' | ')[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    const exported = Object.keys((JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: { [path: string]: unknown } }).exports).map((path) => path.replace(/^\./, 'vbstream'));
    expect([...listed].sort()).toEqual([...exported].sort());
  });

  it('imports, in the README and the guide, only entry points the package exports', () => {
    const exported = new Set(Object.keys((JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: { [path: string]: unknown } }).exports).map((path) => path.replace(/^\./, 'vbstream')));
    for (const doc of ['README.md', 'docs/guide.md']) {
      const imported = [...readFileSync(join(repoRoot, doc), 'utf8').matchAll(/from '(vbstream(?:\/[^']*)?)'/g)].map((m) => m[1]);
      expect(imported.length, doc).toBeGreaterThan(0);
      for (const path of imported) expect(exported.has(path), `${doc}: ${path}`).toBe(true);
    }
  });

  it('gives package users only `npx vbstream` and `npm install` commands; repository commands live under "Developing vbstream"', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const userPart = readme.slice(0, readme.indexOf('## Developing vbstream'));
    const commands = [...userPart.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n').filter((line) => line.trim() !== ''));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command, command).toMatch(/^npx vbstream |^npm install vbstream /);
  });

  it.each(blocks.filter((b) => b.language === 'ts' && !KAFKA_FILES.has(b.file ?? '')).map((b, i) => [i, b.text] as const))('runs library snippet %i', (i, text) => {
    writeFileSync(join(work, `run-${i}.mjs`), transpileSnippet(text));
    const result = run(process.execPath, [`run-${i}.mjs`]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    if (i === 0) expect(result.stdout.trim().split('\n').at(-1)).toBe('3 true');
    if (i === 1) expect(result.stdout).toBe('records: 500 records\nrecords: 1000 records\n');
  });

  it.each(readmeCommands().filter((c) => RUN_ELSEWHERE[c] === undefined))('runs `%s`', (command) => {
    expect(command, 'a command the doc test can run').toMatch(/^npx vbstream /);
    const result = run(process.execPath, [join(repoRoot, 'dist/cli/vbstream.js'), ...command.replace(/^npx vbstream /, '').split(' ')]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    if (command.includes('--config pipeline.json')) expect(result.stdout).toMatch(/done: 20,000 records/);
  });

  it('names the test that runs each command it does not run here', () => {
    for (const command of Object.keys(RUN_ELSEWHERE)) expect(readmeCommands()).toContain(command);
  });
});
