import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/reference.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const source = files(join(repoRoot, 'src')).filter((f) => f.endsWith('.ts'));

/** What src/ must not contain: Node built-ins (with or without `node:`), timers, clocks, process state or unseeded randomness. */
const IMPURE: readonly [string, RegExp][] = [
  ['a Node built-in import', /(?:from|import\s*\(|require\s*\()\s*['"](?:node:[^'"]*|fs|fs\/promises|path|os|child_process|worker_threads|net|http|https|crypto|stream|events|url|util|perf_hooks|timers|process|buffer|zlib|readline|dgram|dns|tls|cluster|module|v8|vm)['"]/],
  ['require()', /\brequire\s*\(/],
  ['a timer', /\b(?:setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/],
  ['a clock', /\bDate\.now\b|\bnew\s+Date\b|\bperformance\.now\b/],
  ['process state', /\bprocess\s*\./],
  ['unseeded randomness', /\bMath\.random\b/],
];

/** Every impurity of a text, as `what: line`. */
function impurities(text: string): string[] {
  return text.split('\n').flatMap((line) => IMPURE.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${what}: ${line.trim()}`));
}

describe('src/ is pure and laid out by the conventions', () => {
  it('no file under src/ imports Node built-ins or uses timers, clocks, process or Math.random', () => {
    const found = source.flatMap((file) => impurities(readFileSync(file, 'utf8')).map((problem) => `${relative(repoRoot, file)}: ${problem}`));
    expect(found).toEqual([]);
  });

  it('the purity check catches what it is for', () => {
    for (const text of ["import { readFile } from 'fs';", "import { join } from 'path';", "import x from 'node:os';", 'const t = new Date();', 'const s = new Date(0).toISOString();', 'Date.now()', 'setTimeout(f, 1);', 'process.env.X', 'Math.random()', "const m = await import('fs');"]) {
      expect(impurities(text), text).not.toEqual([]);
    }
    expect(impurities("import { dot } from '../linalg/dot.js';\nconst created = 'new Dates are fine in strings';")).toEqual([]);
  });

  it('file names are kebab-case', () => {
    for (const file of files(join(repoRoot, 'src'))) expect(relative(repoRoot, file)).toMatch(/^src(\/[a-z0-9]+(-[a-z0-9]+)*)+\.ts$/);
  });
});
