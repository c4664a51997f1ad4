import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvText } from '../shared/csv-text.js';
import { renderSvgChart } from '../shared/svg-chart.js';
import { TRUE_ORDER } from './paper-polynomial-data.js';
import type { OrderSelection } from './run-model-selection.js';

/** The bound against the polynomial order with the true order marked (Drugowitsch Fig. 3A / 6A). */
function boundChart(selection: OrderSelection, title: string): string {
  const orders = selection.bounds.map((_, order) => order);
  const lo = Math.min(...selection.bounds);
  const hi = Math.max(...selection.bounds);
  return renderSvgChart({
    title, xLabel: 'polynomial order', yLabel: 'variational bound L(Q) ≤ ln p(y | X)', legend: 'bottom-right',
    series: [
      { name: `${selection.family} bound`, x: orders, y: selection.bounds, style: 'line-points', color: '#1f77b4' },
      { name: `true order ${TRUE_ORDER}`, x: [TRUE_ORDER, TRUE_ORDER], y: [lo, hi], style: 'dashed', color: '#333333' },
    ],
  });
}

/** Writes `bound-regression.svg`, `bound-classification.svg` and `bounds.csv` (order, both bounds) into `dir`; returns the paths. */
export async function writeModelSelectionOutputs(dir: string, regression: OrderSelection, classification: OrderSelection): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    ['bound-regression.svg', boundChart(regression, `vb-linear: bound against polynomial order (N = ${regression.data.n}, Drugowitsch Fig. 3A)`)],
    ['bound-classification.svg', boundChart(classification, `vb-logit: bound against polynomial order (N = ${classification.data.n}, Drugowitsch Fig. 6A)`)],
    ['bounds.csv', csvText(['order', 'vb_linear_bound', 'vb_logit_bound'], regression.bounds.map((bound, order) => [order, bound, classification.bounds[order]]))],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
