import { SyntheticGenerator } from 'vbstream/files';
import { sparseGpFamily } from 'vbstream';

/** Settings of {@link runSparseGpDlm}. */
export interface SparseGpDlmSettings {
  readonly records: number;
  readonly batchSize: number;
  /** Inducing points M. */
  readonly inducing: number;
  readonly stepsPerUpdate: number;
  readonly learningRate: number;
  readonly level: number;
  readonly seed: number;
}

export const DEFAULT_SPARSE_GP_DLM: SparseGpDlmSettings = { records: 4000, batchSize: 100, inducing: 15, stepsPerUpdate: 5, learningRate: 0.05, level: 0.9, seed: 1 };

/** What the run produced: the curve on a grid, the last minibatch's points and held-out figures. */
export interface SparseGpDlmResults {
  readonly grid: { readonly x: number; readonly truth: number; readonly mean: number; readonly lower: number; readonly upper: number }[];
  readonly recent: { readonly x: number; readonly y: number }[];
  /** The learned inducing inputs Z, each with the predictive mean there. */
  readonly inducing: { readonly x: number; readonly mean: number }[];
  /** Held-out records: RMSE of the predictive mean against the noisy labels, and the share inside the band. */
  readonly heldOutRmse: number;
  readonly coverage: number;
  readonly steps: number;
  readonly noiseVariance: number;
}

/**
 * Minibatch log-loss DLM (Wei, Sheth & Khardon 2021) over a stream: a seeded 1-d GP-like regression
 * stream (noise sd 0.2) flows in minibatches into `sparse-gp` with `objective: "dlm"`, each update
 * taking Adam steps on that minibatch alone; then the predictive mean and central credible band of y
 * are evaluated on a grid and on fresh held-out records from the same stream.
 */
export function runSparseGpDlm(settings: SparseGpDlmSettings = DEFAULT_SPARSE_GP_DLM): SparseGpDlmResults {
  const data = new SyntheticGenerator({ kind: 'gp', dim: 1, seed: settings.seed, noise: 0.2 });
  const model = sparseGpFamily.create(1, { objective: 'dlm', M: settings.inducing, learningRate: settings.learningRate, stepsPerUpdate: settings.stepsPerUpdate, seed: settings.seed });
  const x = new Float64Array(settings.batchSize);
  const y = new Float64Array(settings.batchSize);
  let steps = 0;
  let last = 0;
  for (let seen = 0; seen < settings.records; seen += settings.batchSize) {
    last = Math.min(settings.batchSize, settings.records - seen);
    for (let i = 0; i < last; i++) y[i] = data.next(x.subarray(i, i + 1));
    model.update({ x: x.subarray(0, last), y: y.subarray(0, last), n: last, d: 1 });
    steps += settings.stepsPerUpdate;
  }
  const recent = Array.from({ length: last }, (_, i) => ({ x: x[i], y: y[i] }));
  const grid = Array.from({ length: 121 }, (_, k) => {
    const at = Float64Array.of(-3 + k * 0.05);
    const predictive = model.predict(at);
    const [lower, upper] = predictive.interval(settings.level);
    return { x: at[0], truth: data.signal(at), mean: predictive.mean, lower, upper };
  });
  let se = 0;
  let inside = 0;
  const heldOut = 500;
  const point = new Float64Array(1);
  for (let i = 0; i < heldOut; i++) {
    const label = data.next(point);
    const predictive = model.predict(point);
    const [lower, upper] = predictive.interval(settings.level);
    se += (predictive.mean - label) ** 2;
    if (label >= lower && label <= upper) inside++;
  }
  const inducing = Array.from(model.hyperparameters().Z, (z) => ({ x: z, mean: model.predict(Float64Array.of(z)).mean })).sort((a, b) => a.x - b.x);
  return { grid, recent, inducing, heldOutRmse: Math.sqrt(se / heldOut), coverage: inside / heldOut, steps, noiseVariance: model.hyperparameters().noiseVariance };
}
