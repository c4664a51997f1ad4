import { parentPort, workerData } from 'node:worker_threads';
import { VbstreamError } from '../src/core/vbstream-error.js';
import { getFitAdapter } from './adapters/index.js';
import type { FitJob, FitJobResult } from './fit-job.js';

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
  result = error instanceof VbstreamError
    ? { ok: false, stage, error: { kind: error.kind, reason: error.reason, location: error.location, retriable: error.retriable } }
    : { ok: false, stage, message: error instanceof Error ? error.stack ?? error.message : String(error) };
}
parentPort?.postMessage(result);
