import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';

const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { [name: string]: string } };
const examples = Object.entries(scripts).filter(([name]) => name.startsWith('example:'));

/** `npm run example:*` runs from the existing build when it is up to date, and examples/README.md says what the Kafka example needs. */
describe('the example scripts', () => {
  it('build only what changed (tsc -b against its build info), never the whole project from scratch', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(scripts['build:changed']).toMatch(/^node scripts\/build-wasm\.mjs && tsc -b tsconfig\.json && node dist\/scripts\/copy-live-assets\.js$/);
    for (const [name, command] of examples) expect(command, name).toMatch(/^npm run build:changed && node dist\/examples\/[a-z-]+\/main\.js$/);
  });

  it('the WebAssembly build step of build:changed compiles nothing when the module is newer than its sources', () => {
    const wasm = join(repoRoot, 'dist', 'wasm', 'dense-kernels.wasm');
    const before = statSync(wasm).mtimeMs;
    const run = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-wasm.mjs')], { cwd: repoRoot, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(statSync(wasm).mtimeMs).toBe(before);
  });

  it('examples/README.md says the Kafka example needs Java 17 and what the set-up installs', () => {
    const readme = readFileSync(join(repoRoot, 'examples/README.md'), 'utf8');
    expect(readme).toMatch(/Java 17/);
    expect(readme).toMatch(/scripts\/setup\.sh/);
    expect(readme).toMatch(/npm run kafka:fetch/);
  });
});
