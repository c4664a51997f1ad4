import { Worker } from 'node:worker_threads';
import type { FitJob, FitJobResult } from './fit-job.js';

/** Runs a fit in a worker thread (`fit-worker.js`), calling `progress(seconds)` after 1 s and then every 10 s until it answers. */
export function runFitJob(job: FitJob, progress: (seconds: number) => void): Promise<FitJobResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./fit-worker.js', import.meta.url), { workerData: job });
    let seconds = 0;
    const ticker = setInterval(() => {
      seconds++;
      if (seconds === 1 || seconds % 10 === 0) progress(seconds);
    }, 1_000);
    const done = (): void => {
      clearInterval(ticker);
      void worker.terminate();
    };
    worker.once('message', (result: FitJobResult) => {
      done();
      resolve(result);
    });
    worker.once('error', (error) => {
      done();
      reject(error);
    });
    worker.once('exit', (code) => {
      clearInterval(ticker);
      if (code !== 0) reject(new Error(`the fit worker exited with code ${code}`));
    });
  });
}
