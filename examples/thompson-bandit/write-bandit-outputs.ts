import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvText } from '../shared/csv-text.js';
import { type ChartMarker, renderSvgChart } from '../shared/svg-chart.js';
import type { CalibrationBin } from './calibration-bins.js';
import type { BanditResults } from './bandit-experiment.js';
import type { RegretCurve } from 'vbstream/bandit';

const column = (name: string): string => name.replace(/[^A-Za-z0-9.]+/g, '_').replace(/^_|_$/g, '');

function regretCsv(curves: readonly RegretCurve[]): string {
  const steps = curves[0].cumulative.length;
  return csvText(['step', ...curves.map((c) => column(c.name))], Array.from({ length: steps }, (_, t) => [t + 1, ...curves.map((c) => Number(c.cumulative[t].toFixed(4)))]));
}

function regretSvg(curves: readonly RegretCurve[], title: string, markers?: ChartMarker[]): string {
  const x = Array.from({ length: curves[0].cumulative.length }, (_, t) => t + 1);
  return renderSvgChart({ title, xLabel: 'step', yLabel: 'cumulative regret (expected reward lost)', series: curves.map((c) => ({ name: c.name, x, y: c.cumulative })), markers });
}

/** Bins with fewer records than this are drawn as open grey circles: their observed frequency is mostly noise. */
const MIN_BIN_RECORDS = 30;

/** Reliability diagram: observed frequency per bin against its mean prediction, each point labelled with its record count. */
function calibrationSvg(bins: readonly CalibrationBin[]): string {
  const filled = bins.filter((b) => b.count >= MIN_BIN_RECORDS);
  const sparse = bins.filter((b) => b.count > 0 && b.count < MIN_BIN_RECORDS);
  const label = (b: CalibrationBin): string => `n=${b.count}`;
  return renderSvgChart({
    title: 'Calibration of the Thompson posterior predictive (played arm)', xLabel: 'predicted p(reward = 1)', yLabel: 'observed frequency of reward = 1',
    note: `n = records per bin (0.1 wide); open grey circles: bins under ${MIN_BIN_RECORDS} records, too few to judge`,
    xRange: [0, 1], yRange: [0, 1], legend: 'top-left',
    series: [
      { name: 'perfect calibration', x: [0, 1], y: [0, 1], style: 'dashed', color: '#7f7f7f' },
      { name: `observed frequency (bins of ≥ ${MIN_BIN_RECORDS} records)`, x: filled.map((b) => b.predicted), y: filled.map((b) => b.observed), style: 'line-points', color: '#1f77b4', labels: filled.map(label) },
      { name: `bins of < ${MIN_BIN_RECORDS} records`, x: sparse.map((b) => b.predicted), y: sparse.map((b) => b.observed), style: 'hollow', color: '#999999', labels: sparse.map(label) },
    ],
  });
}

/**
 * Writes the experiment's pictures and numbers into `dir`: `regret.svg`/`.csv` (stationary),
 * `regret-drift.svg`/`.csv` (drifting, forgetting off vs on; the drifts marked) and
 * `calibration.svg`/`.csv` (with each bin's record count).
 * Returns the paths written.
 */
export async function writeBanditOutputs(dir: string, results: BanditResults): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: [string, string][] = [
    ['regret.csv', regretCsv(results.stationary)],
    ['regret.svg', regretSvg(results.stationary, 'Cumulative regret, stationary logistic bandit')],
    ['regret-drift.csv', regretCsv(results.drift)],
    ['regret-drift.svg', regretSvg(results.drift, 'Cumulative regret with drifting rewards: forgetting off vs on', [{ name: 'reward weights drift', x: results.driftSteps, color: '#555555' }])],
    ['calibration.csv', csvText(['bin_lower', 'bin_upper', 'count', 'mean_predicted', 'observed_frequency'], results.calibration.map((b) => [b.lower, b.upper, b.count, b.predicted, b.observed]))],
    ['calibration.svg', calibrationSvg(results.calibration)],
  ];
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
