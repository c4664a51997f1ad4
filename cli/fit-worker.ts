import { parentPort, workerData } from 'node:worker_threads';
import { getFitAdapter } from './adapters/index.js';
import type { FitJob, FitJobResult } from './fit-job.js';
import { workerFailureOf } from './worker-failure.js';

/** The worker side of `vbstream fit`: fits, predicts, and posts the JSON documents (or the typed error, with where it happened) back. */
const job = workerData as FitJob;
let stage: 'fit' | 'predict' = 'fit';
let result: FitJobResult;
try {
  const outcome = getFitAdapter(job.model).fit(job.train, job.options);
  stage = 'predict';
  const predictions = job.test === undefined ? undefined : JSON.stringify(outcome.predict(job.test.x, job.test.n));
  result = { ok: true, posterior: JSON.stringify(outcome.posterior), predictions };
} catch (error) {
  result = { ok: false, stage, ...workerFailureOf(error) };
}
parentPort?.postMessage(result);
