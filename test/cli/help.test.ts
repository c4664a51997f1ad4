import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../../cli/command-help.js';
import { families } from '../../src/registry.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const vbstream = runVbstream;

describe('vbstream as a well-kept command-line tool', () => {
  it('prints its version, and an overview listing every command', () => {
    expect(vbstream('--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = vbstream('help');
    expect(help.code).toBe(0);
    for (const command of Object.keys(COMMAND_HELP)) expect(help.stdout).toContain(`  ${command} `);
    expect(vbstream().code).toBe(2);
    const unknown = vbstream('lern');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "lern"/);
  });

  it.each(Object.keys(COMMAND_HELP))('%s --help gives usage, every option with its default, and an example, without running', (command) => {
    const result = vbstream(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^vbstream ${command} — `));
    expect(result.stdout).toContain(`usage: vbstream ${command}`);
    expect(result.stdout).toMatch(/\noptions:\n {2}-?-?\S/);
    expect(result.stdout).toMatch(/\nexample:\n {2}vbstream /);
    expect(vbstream('help', command).stdout).toBe(result.stdout);
  });

  it('models lists every registered family with its task, streaming semantics and options; --json for tools', () => {
    const text = vbstream('models', ...families.keys());
    expect(text.code).toBe(0);
    for (const id of families.keys()) expect(text.stdout).toMatch(new RegExp(`^${id} \\((regression|classification|count)\\)$`, 'm'));
    expect(text.stdout).toMatch(/streaming: /);
    const json = JSON.parse(vbstream('models', 'vb-logit-online', '--json').stdout) as { id: string; options: { [key: string]: unknown } }[];
    expect(json.map((f) => f.id)).toEqual(['vb-logit-online']);
    expect(Object.keys(json[0].options)).toContain('priorPrecision');
    const typo = vbstream('models', 'vb-logit-onlin');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/did you mean "vb-logit-online"/);
  });
});
