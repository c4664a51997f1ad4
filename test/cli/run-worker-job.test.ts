import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runWorkerJob } from '../../cli/run-worker-job.js';

/** A worker that answers 'done' once the test opens its gate (a shared int set to 1): the job's length is the test's to choose, not the clock's. */
const gatedWorker = new URL(`data:text/javascript,${encodeURIComponent(
  "import { parentPort, workerData } from 'node:worker_threads'; Atomics.wait(new Int32Array(workerData.gate), 0, 0); parentPort.postMessage('done');",
)}`);

const open = (gate: SharedArrayBuffer): void => {
  const cell = new Int32Array(gate);
  Atomics.store(cell, 0, 1);
  Atomics.notify(cell, 0);
};

describe('runWorkerJob', () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }); });
  afterEach(() => { vi.useRealTimers(); });

  it('reports progress after 1 s and then every 10 s while the job runs, and never after it answers', async () => {
    const gate = new SharedArrayBuffer(4);
    const progress: number[] = [];
    const result = runWorkerJob<{ gate: SharedArrayBuffer }, string>(gatedWorker, { gate }, (seconds) => progress.push(seconds));
    vi.advanceTimersByTime(999);
    expect(progress).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(progress).toEqual([1]);
    vi.advanceTimersByTime(8_000);
    expect(progress).toEqual([1]);
    vi.advanceTimersByTime(1_000);
    expect(progress).toEqual([1, 10]);
    vi.advanceTimersByTime(10_000);
    expect(progress).toEqual([1, 10, 20]);
    open(gate);
    await expect(result).resolves.toBe('done');
    vi.advanceTimersByTime(60_000);
    expect(progress).toEqual([1, 10, 20]);
  });

  it('a job that answers within a second reports no progress', async () => {
    const gate = new SharedArrayBuffer(4);
    const progress: number[] = [];
    const result = runWorkerJob<{ gate: SharedArrayBuffer }, string>(gatedWorker, { gate }, (seconds) => progress.push(seconds));
    vi.advanceTimersByTime(900);
    open(gate);
    await expect(result).resolves.toBe('done');
    vi.advanceTimersByTime(10_000);
    expect(progress).toEqual([]);
  });
});
