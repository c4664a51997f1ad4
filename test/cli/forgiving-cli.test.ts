import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { families } from '../../src/registry.js';
import { repoRoot } from '../helpers/reference.js';
import { runVbstream as vbstream } from '../helpers/run-vbstream.js';

/** The CLI forgives a new user's slips (issue 29, item 7): one line per mistake, with the name meant. */
const work = mkdtempSync(join(tmpdir(), 'vbstream-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Hooks that append every module URL Node resolves to the file in VBSTREAM_TRACE_IMPORTS. */
const TRACE_HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.VBSTREAM_TRACE_IMPORTS, resolved.url + '\\n');
  return resolved;
}`;

/** The module URLs `vbstream <args>` resolved, as an ESM resolve hook saw them. */
function importsOf(...args: string[]): string[] {
  const hooks = join(work, 'trace-hooks.mjs');
  const register = join(work, 'trace-register.mjs');
  const trace = join(work, `trace-${args.join('-')}.txt`);
  writeFileSync(hooks, TRACE_HOOKS);
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  writeFileSync(trace, '');
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, join(repoRoot, 'dist/cli/vbstream.js'), ...args], { encoding: 'utf8', env: { ...process.env, VBSTREAM_TRACE_IMPORTS: trace } });
  expect(result.status).toBe(0);
  return readFileSync(trace, 'utf8').split('\n').filter((url) => url !== '');
}

describe('a forgiving vbstream CLI', () => {
  it('a run config whose CSV is missing: one line naming the file, no stack trace', () => {
    writeFileSync(join(work, 'missing.json'), JSON.stringify({ source: { type: 'csv', path: 'nope.csv' }, model: { family: 'vb-linear' }, metrics: false }));
    const result = vbstream('run', '--config', join(work, 'missing.json'));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(join(work, 'nope.csv'));
    expect(result.stderr).toMatch(/no such file/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('"did you mean" for a command, a flag and a family name', () => {
    const command = vbstream('fti');
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "fti"; did you mean "fit"\?/);
    const flag = vbstream('fit', '--modle', 'vb-linear');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--modle'.*did you mean --model\?/);
    const runFlag = vbstream('run', '--resum');
    expect(runFlag.stderr).toMatch(/did you mean --resume\?/);
    writeFileSync(join(work, 'typo-family.json'), JSON.stringify({ source: { type: 'synthetic', kind: 'logistic', dim: 2, records: 10 }, model: { family: 'adf-logt' }, metrics: false }));
    const family = vbstream('run', '--config', join(work, 'typo-family.json'));
    expect(family.code).toBe(1);
    expect(family.stderr).toMatch(/did you mean "adf-logit"/);
  });

  it('`vbstream help <unknown>` exits non-zero with one line and the closest command', () => {
    const result = vbstream('help', 'modles');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^vbstream: unknown command "modles"; did you mean "models"\?/);
  });

  it('`vbstream models` without an id prints one line per family; with an id, the details', () => {
    const table = vbstream('models');
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    const rows = lines.filter((line) => /^\S+\s{2,}/.test(line) && families.has(line.split(/\s+/)[0]));
    expect(rows.map((line) => line.split(/\s+/)[0])).toEqual([...families.keys()]);
    expect(lines.length).toBeLessThanOrEqual(families.size + 3);
    const one = vbstream('models', 'vb-linear');
    expect(one.stdout).toMatch(/^vb-linear \(regression\)\n/);
    expect(one.stdout).toMatch(/options:\n/);
  });

  it('--help and --version load no Kafka client', () => {
    const kafka = /\/node_modules\/(kafkajs|@platformatic\/kafka)\//;
    for (const args of [['--help'], ['--version'], ['run', '--help'], ['kafka:produce', '--help']]) {
      const urls = importsOf(...args);
      expect(urls.some((url) => url.endsWith('/cli/vbstream.js')), args.join(' ')).toBe(true);
      expect(urls.filter((url) => kafka.test(url)), args.join(' ')).toEqual([]);
    }
    expect(importsOf('models', 'vb-linear').filter((url) => kafka.test(url))).toEqual([]);
  });
});
