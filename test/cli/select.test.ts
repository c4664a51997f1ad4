import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { paperPolynomialData } from '../../examples/model-selection/paper-polynomial-data.js';
import { selectByBound } from '../../src/selection/select-by-bound.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const dir = mkdtempSync(join(tmpdir(), 'vbstream-select-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Drugowitsch §2.6.4's data (seed 1) with a second, irrelevant column z, as CSV (String(number) round-trips every double). */
const data = paperPolynomialData('regression', 1);
const z = Array.from({ length: data.n }, (_, i) => Math.cos(3 * i));
const train = join(dir, 'train.csv');
writeFileSync(train, `x,z,y\n${Array.from({ length: data.n }, (_, i) => `${data.x[i]},${z[i]},${data.y[i]}`).join('\n')}\n`);

interface SelectJson { records: number; features: number; ranking: { rank: number; name: string; family: string; width: number; bound: number; delta: number; probability: number }[] }

describe('vbstream select', () => {
  it('--model --degrees ranks polynomial degrees by the bound in worker threads: the true degree 2 first, the same bounds as selectByBound', () => {
    const text = runVbstream('select', '--input', train, '--model', 'vb-linear', '--degrees', '0..9', '--columns', 'x', '--workers', '2');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^rank {2}candidate +family +features +bound +Δ +P\n +1 {2}vb-linear polynomial\(2\) /);
    expect(text.stdout).toMatch(/best: vb-linear polynomial\(2\) — 10 candidates fitted on 10 records .* \(2 workers\)/);
    const json = JSON.parse(runVbstream('select', '--input', train, '--model', 'vb-linear', '--degrees', '0..9', '--columns', 'x', '--json').stdout) as SelectJson;
    const reference = selectByBound(Array.from({ length: 10 }, (_, degree) => ({ family: 'vb-linear', features: { type: 'polynomial', degree, columns: [0] } })), { x: Float64Array.from({ length: 2 * data.n }, (_, i) => (i % 2 === 0 ? data.x[i >> 1] : z[i >> 1])), y: data.y, n: data.n, d: 2 });
    expect(json).toMatchObject({ records: 10, features: 2 });
    expect(json.ranking.map((c) => [c.name, c.bound, c.probability])).toEqual(reference.map((c) => [c.name, c.bound, c.probability]));
    expect(json.ranking.map((c) => c.rank)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('--candidates takes a JSON array (inline or a file) of families, options and transforms, columns by name or index', () => {
    const candidates = [
      { name: 'x quadratic', family: 'vb-linear', features: { type: 'polynomial', degree: 2, columns: ['x'] } },
      { name: 'z quadratic', family: 'vb-linear', features: { type: 'polynomial', degree: 2, columns: [1] } },
      { name: 'both, ARD', family: 'vb-linear-ard', features: { type: 'polynomial', degree: 2 } },
    ];
    const file = join(dir, 'candidates.json');
    writeFileSync(file, JSON.stringify(candidates));
    const fromFile = JSON.parse(runVbstream('select', '--input', train, '--candidates', file, '--json').stdout) as SelectJson;
    const inline = JSON.parse(runVbstream('select', '--input', train, '--candidates', JSON.stringify(candidates), '--json').stdout) as SelectJson;
    expect(inline).toEqual(fromFile);
    expect(fromFile.ranking.map((c) => c.name).indexOf('x quadratic')).toBeLessThan(fromFile.ranking.map((c) => c.name).indexOf('z quadratic'));
    expect(fromFile.ranking.find((c) => c.name === 'both, ARD')!.width).toBe(5);
  });

  it('refuses, with typed errors and no ranking, families that do not bound the evidence and bad arguments', () => {
    const adf = runVbstream('select', '--input', train, '--model', 'adf-probit', '--degrees', '0..2');
    expect(adf.code).toBe(1);
    expect(adf.stderr).toMatch(/family adf-probit has no variational lower bound on the evidence to rank by; families that have: vb-linear, vb-linear-ard, vb-logit, vb-logit-ard, direct/);
    expect(adf.stdout).toBe('');
    expect(runVbstream('select', '--input', train).stderr).toMatch(/either --candidates or --model/);
    expect(runVbstream('select', '--input', train, '--model', 'vb-linear', '--degrees', '3..1').stderr).toMatch(/--degrees must be lo\.\.hi/);
    expect(runVbstream('select', '--input', train, '--model', 'vb-linear', '--degrees', '0..2', '--columns', 'w').stderr).toMatch(/no feature column "w"; the columns are x, z/);
    expect(runVbstream('select', '--input', train, '--candidates', '[{"family": "vb-linear", "features": {"type": "spline"}}]').stderr).toMatch(/must be identity, columns, polynomial or rbf \(field candidates\[0\]\.features\.type/);
    expect(runVbstream('select', '--input', train, '--candidates', '[{"family"').stderr).toMatch(/--candidates is not valid JSON/);
  });

  it('models says which families offer the bound select ranks by', () => {
    const listed = JSON.parse(runVbstream('models', 'vb-linear', 'adf-logit', '--json').stdout) as { id: string; evidenceBound: boolean }[];
    expect(listed.map((f) => [f.id, f.evidenceBound])).toEqual([['vb-linear', true], ['adf-logit', false]]);
    expect(runVbstream('models', 'direct').stdout).toMatch(/; evidence bound \(vbstream select\) yes\n/);
  });

  it('a fit that fails in its worker names the candidate and the input file (labels vb-logit cannot read)', () => {
    const result = runVbstream('select', '--input', train, '--model', 'vb-logit', '--degrees', '0..1');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/candidate "vb-logit polynomial\(\d\)": .*train\.csv/);
  });
});
