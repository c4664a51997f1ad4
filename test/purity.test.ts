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

describe('src/ is pure and laid out by the conventions', () => {
  it.each(source.map((f) => relative(repoRoot, f)))('%s: no node: imports, timers, clocks, process or I/O', (file) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    expect(text).not.toMatch(/from ['"]node:|require\(|\bimport\(['"]node:/);
    expect(text).not.toMatch(/\b(setTimeout|setInterval|setImmediate|queueMicrotask)\s*\(/);
    expect(text).not.toMatch(/\b(Date\.now|new Date\(|performance\.now|process\.|Math\.random)\b/);
  });

  it('file names are kebab-case', () => {
    for (const file of files(join(repoRoot, 'src'))) expect(relative(repoRoot, file)).toMatch(/^src(\/[a-z0-9]+(-[a-z0-9]+)*)+\.ts$/);
  });
});
