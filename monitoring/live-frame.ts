/** Reliability diagram of one model: per predicted-probability bin, its upper bound, the records in it and the positives among them. */
export interface LiveCalibration {
  readonly upper: readonly number[];
  readonly count: readonly number[];
  readonly positives: readonly number[];
}

/** One model (of one partition) in a live frame. */
export interface LiveModelFrame {
  readonly model: string;
  readonly partition: string;
  /** Records learned so far and their rate since the previous frame (records/s). */
  readonly records: number;
  readonly throughput: number;
  /** Prequential scores over the recorder's window (absent before the first scored record). */
  readonly logLoss?: number;
  readonly brier?: number;
  readonly effectiveDataSize?: number;
  readonly snapshots: number;
  readonly calibration?: LiveCalibration;
  /** Largest posterior coefficients (largest |mean| first): feature names, their column indices (the page's colour of a feature), means and Monte Carlo standard deviations. */
  readonly coefficients?: { readonly names: readonly string[]; readonly index: readonly number[]; readonly mean: readonly number[]; readonly sd?: readonly number[] };
}

/** A scoring service (`vbstream serve`) in a live frame. */
export interface LiveServeFrame {
  /** `POST /predict` requests answered per second since the previous frame, by HTTP status (0 in the first frame). */
  readonly requestsPerSecond: { readonly [status: string]: number };
  /** Median and 99th percentile of the `POST /predict` latency since the previous frame, ms (estimated from the histogram's buckets); absent without requests. */
  readonly latencyMs?: { readonly p50: number; readonly p99: number };
  /** Rows predicted and answered so far. */
  readonly predictions: number;
  /** The version of the posterior served (absent before one is loaded). */
  readonly version?: string;
  /** The predicted p(y = 1) of the rows answered so far (binary families): per bin, its upper bound and the rows in it. */
  readonly probability: { readonly upper: readonly number[]; readonly count: readonly number[] };
}

/**
 * What the live view pushes every tick (as JSON on the `/events` stream): the state of every model
 * and the pipeline-wide series at time `t` (ms since the epoch). Keys of `models` are
 * `model` or `model / p<partition>`; of `lag`, `topic / p<partition>`.
 */
export interface LiveFrame {
  readonly t: number;
  readonly models: { readonly [key: string]: LiveModelFrame };
  readonly lag: { readonly [topicPartition: string]: number };
  readonly deadLetters: { readonly [reason: string]: number };
  readonly queueDepth?: number;
  /** The readiness conditions not met, with what is wrong (a Kafka outage, a dead-letter alarm, a rebalance), when the view knows the readiness. */
  readonly notReady?: readonly string[];
  /** Present when the registry holds a scoring service's series. */
  readonly serve?: LiveServeFrame;
  readonly bandit?: {
    readonly decisions?: number;
    readonly arms?: { readonly names: readonly string[]; readonly choices: readonly number[] };
    readonly cumulativeReward?: number;
  };
}
