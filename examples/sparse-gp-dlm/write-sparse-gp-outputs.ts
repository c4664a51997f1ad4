import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvText } from '../shared/csv-text.js';
import { renderSvgChart } from '../shared/svg-chart.js';
import type { SparseGpDlmResults } from './run-sparse-gp-dlm.js';

/** Writes `predictive.svg` (mean, band, truth, the last minibatch, the inducing points) and `predictive.csv` into `dir`; returns the paths. */
export async function writeSparseGpOutputs(dir: string, results: SparseGpDlmResults, level: number): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { grid, recent, inducing } = results;
  const outside = inducing.filter((z) => z.x < -3 || z.x > 3).length;
  const x = grid.map((g) => g.x);
  const percent = Math.round(level * 100);
  const svg = renderSvgChart({
    title: `Sparse GP, minibatch log-loss DLM: predictive mean and ${percent}% band`, xLabel: 'x', yLabel: 'y', legend: 'top-right', xRange: [-3, 3],
    note: `open circles: the ${inducing.length} learned inducing inputs Z on the predictive mean${outside > 0 ? ` (${outside} outside the plotted range)` : ''}`,
    bands: [{ name: `${percent}% predictive band`, x, lower: grid.map((g) => g.lower), upper: grid.map((g) => g.upper), color: '#1f77b4' }],
    series: [
      { name: 'predictive mean', x, y: grid.map((g) => g.mean), color: '#1f77b4' },
      { name: 'true f', x, y: grid.map((g) => g.truth), style: 'dashed', color: '#333333' },
      { name: 'last minibatch', x: recent.map((r) => r.x), y: recent.map((r) => r.y), style: 'points', color: '#d62728' },
      { name: `inducing points (M = ${inducing.length})`, x: inducing.map((z) => z.x), y: inducing.map((z) => z.mean), style: 'hollow', color: '#2ca02c' },
    ],
  });
  const files: [string, string][] = [
    ['predictive.svg', svg],
    ['predictive.csv', csvText(['x', 'true_f', 'mean', 'lower', 'upper'], grid.map((g) => [g.x, g.truth, g.mean, g.lower, g.upper]))],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
