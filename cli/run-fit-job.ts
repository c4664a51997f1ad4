import type { FitJob, FitJobResult } from './fit-job.js';
import { runWorkerJob } from './run-worker-job.js';

/** Runs a fit in a worker thread (`fit-worker.js`), calling `progress(seconds)` after 1 s and then every 10 s until it answers. */
export function runFitJob(job: FitJob, progress: (seconds: number) => void): Promise<FitJobResult> {
  return runWorkerJob(new URL('./fit-worker.js', import.meta.url), job, progress);
}
