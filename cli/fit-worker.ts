import { parentPort, workerData } from 'node:worker_threads';
import { getFitAdapter } from './adapters/index.js';
import type { Predictive } from '../src/core/predictive.js';
import type { FitJob, FitJobResult } from './fit-job.js';
import { workerFailureOf } from './worker-failure.js';

/** Level of the credible intervals in predictions.json. */
const LEVEL = 0.9;

/** The central 90% credible interval of each test row's label (of p for a binary label). */
function intervalsOf(predictive: (x: Float64Array, offset: number) => Predictive, test: { readonly x: Float64Array; readonly n: number }, d: number): { interval: { level: number; lower: number[]; upper: number[] } } {
  const lower: number[] = [];
  const upper: number[] = [];
  for (let r = 0; r < test.n; r++) {
    const [low, high] = predictive(test.x, r * d).interval(LEVEL);
    lower.push(low);
    upper.push(high);
  }
  return { interval: { level: LEVEL, lower, upper } };
}

/** The worker side of `vbstream fit`: fits, predicts, and posts the JSON documents (or the typed error, with where it happened) back. */
const job = workerData as FitJob;
let stage: 'fit' | 'predict' = 'fit';
let result: FitJobResult;
try {
  const outcome = getFitAdapter(job.model).fit(job.train, job.options);
  stage = 'predict';
  const test = job.test;
  const predictions = test === undefined ? undefined : JSON.stringify({ ...outcome.predict(test.x, test.n), ...(outcome.predictive === undefined ? {} : intervalsOf(outcome.predictive, test, job.train.d)) });
  result = { ok: true, posterior: JSON.stringify({ ...outcome.posterior, features: job.features }), predictions };
} catch (error) {
  result = { ok: false, stage, ...workerFailureOf(error) };
}
parentPort?.postMessage(result);
