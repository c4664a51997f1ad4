import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TRUE_ORDER } from '../../examples/model-selection/paper-polynomial-data.js';
import { DEFAULT_MODEL_SELECTION, runModelSelection } from '../../examples/model-selection/run-model-selection.js';
import { writeModelSelectionOutputs } from '../../examples/model-selection/write-model-selection-outputs.js';

describe('model-selection example (Drugowitsch Fig. 3A and 6A)', () => {
  let dir = '';
  afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }); });
  const { regression, classification } = runModelSelection(DEFAULT_MODEL_SELECTION);

  it('the bound of orders 0 … 9 peaks at the true order 2 for vb-linear (N = 10) and vb-logit (N = 50)', () => {
    for (const selection of [regression, classification]) {
      expect(selection.bounds).toHaveLength(10);
      expect(selection.bestOrder).toBe(TRUE_ORDER);
      expect(Math.max(...selection.bounds)).toBe(selection.bounds[TRUE_ORDER]);
      expect(selection.ranking[0].probability).toBeGreaterThan(0.5);
    }
  });

  it('writes the two bound-against-order pictures, with the true order marked, and the CSV', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vbstream-model-selection-'));
    await writeModelSelectionOutputs(dir, regression, classification);
    for (const [file, family] of [['bound-regression.svg', 'vb-linear'], ['bound-classification.svg', 'vb-logit']]) {
      const svg = await readFile(join(dir, file), 'utf8');
      for (const name of [`${family} bound`, `true order ${TRUE_ORDER}`]) expect(svg).toContain(`data-series="${name}"`);
    }
    const csv = (await readFile(join(dir, 'bounds.csv'), 'utf8')).trim().split('\n');
    expect(csv[0]).toBe('order,vb_linear_bound,vb_logit_bound');
    expect(csv.slice(1).map((line) => line.split(',').map(Number))).toEqual(regression.bounds.map((bound, order) => [order, bound, classification.bounds[order]]));
  });
});
