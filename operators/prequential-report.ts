/** One bin of a reliability diagram: predictions with p(y = 1) in [lower, upper). */
export interface CalibrationBin {
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
  /** Mean predicted probability in the bin (NaN when empty). */
  readonly meanPredicted: number;
  /** Fraction of positive labels in the bin (NaN when empty). */
  readonly observedRate: number;
}

/**
 * Running test-then-train scores: every record scored by the model before it learned it. Binary
 * labels give the Brier score and a calibration histogram; real labels the squared error.
 */
export interface PrequentialReport {
  /** Records scored so far. */
  readonly records: number;
  readonly recordsSeen: number;
  /** Mean −log p(y | x, data before the record). */
  readonly logLoss: number;
  /** Mean (p − y)² for binary labels (y in {0, 1}), else NaN. */
  readonly brier: number;
  /** Mean (E[y] − y)² for real labels (over records with a defined predictive mean), else NaN. */
  readonly squaredError: number;
  /** Reliability diagram for binary labels (empty otherwise). */
  readonly calibration: readonly CalibrationBin[];
}
