import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runVbstream as vbstream } from '../helpers/run-vbstream.js';

/** Safer defaults of `vbstream run` (issue 29, item 10). */
const work = mkdtempSync(join(tmpdir(), 'vbstream-defaults-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const csv = (name: string, rows: readonly string[]): void => writeFileSync(join(work, name), `a,b,y\n${rows.join('\n')}\n`);
const pipeline = (name: string, source: string, family: string): string => {
  writeFileSync(join(work, name), JSON.stringify({ source: { type: 'csv', path: source }, model: { family }, snapshots: { dir: 'shared' }, metrics: false }));
  return join(work, name);
};

describe('vbstream run defaults', () => {
  csv('binary.csv', Array.from({ length: 300 }, (_, i) => `${(i % 7) - 3},${(i % 5) / 2},${i % 3 === 0 ? 1 : 0}`));
  csv('real.csv', Array.from({ length: 300 }, (_, i) => `${(i % 7) - 3},${(i % 5) / 2},${((i % 11) / 3).toFixed(3)}`));

  it('refuses, with one line, a snapshot directory holding another source\'s snapshots (and keeps them)', () => {
    const first = vbstream('run', '--config', pipeline('first.json', 'binary.csv', 'adf-logit'));
    expect(first.code).toBe(0);
    const before = readdirSync(join(work, 'shared'));
    const second = vbstream('run', '--config', pipeline('second.json', 'real.csv', 'vb-linear'));
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/snapshots of another pipeline/);
    expect(second.stderr).toContain('binary.csv');
    expect(readdirSync(join(work, 'shared'))).toEqual(before);
    const again = vbstream('run', '--config', pipeline('again.json', 'binary.csv', 'adf-logit'));
    expect(again.code).toBe(0);
  });

  it('warns in one line when a regression family gets only 0/1 labels', () => {
    writeFileSync(join(work, 'regression-on-binary.json'), JSON.stringify({ source: { type: 'csv', path: 'binary.csv' }, model: { family: 'vb-linear' }, snapshots: { dir: 'regression-on-binary' }, metrics: false }));
    const run = vbstream('run', '--config', join(work, 'regression-on-binary.json'));
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => /warning/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/vb-linear is a regression family.*0\/1.*adf-logit/);
  });

  it('warns in one line when a binary family meets labels that are not 0/1', () => {
    writeFileSync(join(work, 'binary-on-real.json'), JSON.stringify({ source: { type: 'csv', path: 'real.csv' }, model: { family: 'adf-logit' }, snapshots: { dir: 'binary-on-real' }, metrics: false }));
    const run = vbstream('run', '--config', join(work, 'binary-on-real.json'));
    const warnings = run.stderr.split('\n').filter((line) => /warning/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/adf-logit is a binary family.*not 0\/1.*vb-linear/);
  });

  it('no warning when family and labels match', () => {
    writeFileSync(join(work, 'match.json'), JSON.stringify({ source: { type: 'csv', path: 'real.csv' }, model: { family: 'vb-linear' }, snapshots: { dir: 'match' }, metrics: false }));
    const run = vbstream('run', '--config', join(work, 'match.json'));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
