import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';

const HEADING = '## Measured, family by family';

/** The rows (after the header and separator) of the first table under {@link HEADING} in README.md. */
function familyFigureRows(): string[] {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf(`${HEADING}\n`);
  if (start < 0) return [];
  const next = readme.indexOf('\n## ', start + HEADING.length);
  const lines = readme.slice(start, next < 0 ? undefined : next).split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2);
}

describe('README family figures', () => {
  it('every row names the bench command that prints its figures, and every command runs a bench script of bench/', () => {
    const rows = familyFigureRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const commands = [...row.matchAll(/`node dist\/bench\/([\w-]+)\.bench\.js(?: [\w-]+)*`/g)];
      expect(commands.length, row).toBeGreaterThan(0);
      for (const [, name] of commands) expect(existsSync(join(repoRoot, 'bench', `${name}.bench.ts`)), `bench/${name}.bench.ts (${row.slice(0, 40)}…)`).toBe(true);
    }
  });

  it('has a row, with its KL, coverage and records/s, for every streaming family', () => {
    const rows = familyFigureRows();
    const families = ['adf-logit', 'adf-probit', 'adf-poisson', 'vb-logit-online', 'vi-gh', 'vi-per', 'vi-per-mf', 'vi-mc', 'vb-logit', 'pg-logit', 'vb-linear', 'vb-linear-ard', 'direct', 'sparse-gp'];
    for (const family of families) {
      const row = rows.find((line) => line.startsWith(`| \`${family}\` |`));
      expect(row, `a row for ${family}`).toBeDefined();
      const cells = row!.split('|').slice(2, 5).map((cell) => cell.trim());
      for (const cell of cells) expect(cell, `${family}: KL, coverage and records/s are figures`).toMatch(/\d/);
    }
  });
});
