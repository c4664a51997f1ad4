/** One bin of a reliability diagram. */
export interface CalibrationBin {
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
  /** Mean predicted probability in the bin (NaN when empty). */
  readonly predicted: number;
  /** Observed frequency of reward 1 in the bin (NaN when empty). */
  readonly observed: number;
}

/** Groups (predicted probability, 0/1 outcome) pairs into `bins` equal-width bins over [0, 1]. */
export function calibrationBins(predicted: readonly number[], outcomes: readonly number[], bins = 10): CalibrationBin[] {
  const count = new Array<number>(bins).fill(0);
  const sumP = new Array<number>(bins).fill(0);
  const sumY = new Array<number>(bins).fill(0);
  predicted.forEach((p, i) => {
    const b = Math.min(bins - 1, Math.floor(p * bins));
    count[b]++;
    sumP[b] += p;
    sumY[b] += outcomes[i];
  });
  return count.map((n, b) => ({ lower: b / bins, upper: (b + 1) / bins, count: n, predicted: n === 0 ? Number.NaN : sumP[b] / n, observed: n === 0 ? Number.NaN : sumY[b] / n }));
}
