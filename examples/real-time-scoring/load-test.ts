/** What {@link runLoadTest} measured. */
export interface LoadTestReport {
  readonly requests: number;
  readonly ok: number;
  readonly failed: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Distinct model versions (sequence numbers) seen in the answers. */
  readonly sequences: number[];
}

/**
 * POSTs `body()` to `url` from `concurrency` loops until `requests` have been sent or `maxMs` has
 * passed, whichever is first, and reports throughput and latency percentiles (successes only).
 */
export async function runLoadTest(url: string, body: () => unknown, options: { requests: number; concurrency: number; maxMs: number }): Promise<LoadTestReport> {
  const latencies: number[] = [];
  const sequences = new Set<number>();
  let sent = 0;
  let failed = 0;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (sent < options.requests && performance.now() - start < options.maxMs) {
      sent++;
      const t0 = performance.now();
      try {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body()) });
        const json = (await response.json()) as { version?: { sequence: number } };
        if (response.status !== 200) failed++;
        else {
          latencies.push(performance.now() - t0);
          sequences.add(json.version!.sequence);
        }
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const quantile = (q: number): number => (latencies.length === 0 ? Number.NaN : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return { requests: sent, ok: latencies.length, failed, seconds, requestsPerSecond: latencies.length / seconds, p50Ms: quantile(0.5), p99Ms: quantile(0.99), sequences: [...sequences].sort((a, b) => a - b) };
}
