/** Probabilities are clipped to [ε, 1 − ε] before the logarithm, as River's and scikit-learn's log-loss do. */
const EPSILON = 1e-15;

/** Number of equal-width calibration bins on [0, 1]. */
const BINS = 10;

/** The calibration bin that contributes most to the expected calibration error. */
export interface WorstBin {
  readonly lo: number;
  readonly hi: number;
  readonly count: number;
  readonly meanProb: number;
  readonly rate: number;
}

/** Scores of predictions p(y = 1) made before each record was learnt (test-then-train). */
export interface PrequentialScores {
  readonly logLoss: number;
  readonly brier: number;
  /** Σ_b (n_b / n)·|mean p_b − mean y_b| over 10 equal-width bins of p. */
  readonly ece: number;
  readonly worstBin: WorstBin;
}

/**
 * Log-loss, Brier score and 10-bin expected calibration error of `prob[r]` against the 0/1 labels
 * `y[r]` for records r in [from, to). The worst bin is the one with the largest (n_b / n)·|gap|.
 */
export function prequentialScores(prob: Float64Array, y: Float64Array, from = 0, to = prob.length): PrequentialScores {
  const count = new Float64Array(BINS);
  const probSum = new Float64Array(BINS);
  const labelSum = new Float64Array(BINS);
  let logLoss = 0;
  let brier = 0;
  for (let r = from; r < to; r++) {
    const p = Math.min(Math.max(prob[r], EPSILON), 1 - EPSILON);
    logLoss -= y[r] === 1 ? Math.log(p) : Math.log1p(-p);
    brier += (prob[r] - y[r]) ** 2;
    const bin = Math.min(BINS - 1, Math.floor(prob[r] * BINS));
    count[bin]++;
    probSum[bin] += prob[r];
    labelSum[bin] += y[r];
  }
  const n = to - from;
  let ece = 0;
  let worst = 0;
  let worstContribution = -1;
  for (let b = 0; b < BINS; b++) {
    if (count[b] === 0) continue;
    const contribution = Math.abs(probSum[b] - labelSum[b]) / n;
    ece += contribution;
    if (contribution > worstContribution) { worstContribution = contribution; worst = b; }
  }
  return {
    logLoss: logLoss / n, brier: brier / n, ece,
    worstBin: { lo: worst / BINS, hi: (worst + 1) / BINS, count: count[worst], meanProb: probSum[worst] / count[worst], rate: labelSum[worst] / count[worst] },
  };
}
