import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvText } from '../shared/csv-text.js';
import { renderSvgChart } from '../shared/svg-chart.js';
import type { BanditResults } from './bandit-experiment.js';
import type { RegretCurve } from 'vbstream/bandit';

const column = (name: string): string => name.replace(/[^A-Za-z0-9.]+/g, '_').replace(/^_|_$/g, '');

function regretCsv(curves: readonly RegretCurve[]): string {
  const steps = curves[0].cumulative.length;
  return csvText(['step', ...curves.map((c) => column(c.name))], Array.from({ length: steps }, (_, t) => [t + 1, ...curves.map((c) => Number(c.cumulative[t].toFixed(4)))]));
}

function regretSvg(curves: readonly RegretCurve[], title: string): string {
  const x = Array.from({ length: curves[0].cumulative.length }, (_, t) => t + 1);
  return renderSvgChart({ title, xLabel: 'step', yLabel: 'cumulative regret (expected reward lost)', series: curves.map((c) => ({ name: c.name, x, y: c.cumulative })) });
}

/**
 * Writes the experiment's pictures and numbers into `dir`: `regret.svg`/`.csv` (stationary),
 * `regret-drift.svg`/`.csv` (drifting, forgetting off vs on) and `calibration.svg`/`.csv`.
 * Returns the paths written.
 */
export async function writeBanditOutputs(dir: string, results: BanditResults): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const filled = results.calibration.filter((b) => b.count > 0);
  const files: [string, string][] = [
    ['regret.csv', regretCsv(results.stationary)],
    ['regret.svg', regretSvg(results.stationary, 'Cumulative regret, stationary logistic bandit')],
    ['regret-drift.csv', regretCsv(results.drift)],
    ['regret-drift.svg', regretSvg(results.drift, 'Cumulative regret with drifting rewards: forgetting off vs on')],
    ['calibration.csv', csvText(['bin_lower', 'bin_upper', 'count', 'mean_predicted', 'observed_frequency'], results.calibration.map((b) => [b.lower, b.upper, b.count, b.predicted, b.observed]))],
    ['calibration.svg', renderSvgChart({
      title: 'Calibration of the Thompson posterior predictive (played arm)', xLabel: 'predicted p(reward = 1)', yLabel: 'observed frequency of reward = 1',
      xRange: [0, 1], yRange: [0, 1],
      series: [
        { name: 'perfect calibration', x: [0, 1], y: [0, 1], style: 'dashed', color: '#7f7f7f' },
        { name: 'observed frequency per bin (0.1 wide)', x: filled.map((b) => b.predicted), y: filled.map((b) => b.observed), style: 'line-points', color: '#1f77b4' },
      ],
    })],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
