/**
 * Runs `work` (which returns how many units it processed) repeatedly for at least `minMs`
 * after one warm-up call, and returns units per second.
 */
export function throughput(work: () => number, minMs = 1000): number {
  work();
  let units = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    units += work();
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return (units / elapsed) * 1000;
}

/** Median wall time in ms of `repeats` calls of `work` (after one warm-up call). */
export function medianMs(work: () => void, repeats = 5): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Formats a number with thousands separators. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
