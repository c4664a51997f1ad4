/** Histogram bucket upper bounds shared by the worker-side recorders and the exported histograms. */
export const METRIC_BUCKETS = {
  /** Update latency, seconds: 1 µs to 10 s. */
  updateDurationSeconds: [1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  /** Records per update call. */
  minibatchSize: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000],
  /** HTTP request durations, seconds: 0.5 ms to 10 s (a request deadline is 10 s by default). */
  httpRequestSeconds: [5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  /** Predicted probability of the positive class: ten equal bins. */
  predictedProbability: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
} as const;
