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

/** CPU time (user + system) in ms of one call of `work`. */
export function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Median CPU time (user + system) in ms of `repeats` calls of `work` (after one warm-up call): the figure to trust on a shared machine. */
export function medianCpuMs(work: () => void, repeats = 5): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) times.push(cpuMs(work));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The median of `values` (the upper one of the two middle values of an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Formats a number with thousands separators. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/**
 * Like {@link throughput}, but returns units per second of wall time and per second of this
 * process's CPU time (user + system). On a shared machine the CPU figure is the one-core rate;
 * it is conservative, since garbage-collector threads add CPU time too.
 */
export function throughputWallAndCpu(work: () => number, minMs = 1000): { wall: number; cpu: number } {
  work();
  let units = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let elapsed = 0;
  do {
    units += work();
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (units / elapsed) * 1000, cpu: (units / (cpu.user + cpu.system)) * 1e6 };
}
