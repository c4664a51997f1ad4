import { Worker } from 'node:worker_threads';

/**
 * Runs `job` in a worker thread (the compiled `script`, which posts one result), resolving with what
 * it posts; with `progress`, calls `progress(seconds)` after 1 s and then every 10 s until it answers.
 */
export function runWorkerJob<Job, Result>(script: URL, job: Job, progress?: (seconds: number) => void): Promise<Result> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: job });
    let seconds = 0;
    const ticker = progress === undefined ? undefined : setInterval(() => {
      seconds++;
      if (seconds === 1 || seconds % 10 === 0) progress(seconds);
    }, 1_000);
    const done = (): void => {
      clearInterval(ticker);
      void worker.terminate();
    };
    worker.once('message', (result: Result) => {
      done();
      resolve(result);
    });
    worker.once('error', (error) => {
      done();
      reject(error);
    });
    worker.once('exit', (code) => {
      clearInterval(ticker);
      if (code !== 0) reject(new Error(`the worker ${script.pathname} exited with code ${code}`));
    });
  });
}
