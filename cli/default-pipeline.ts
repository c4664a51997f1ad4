/**
 * The embedded default of `vbstream run` (and `npm start`): a seeded synthetic logistic stream of
 * half a million records (d = 10, bias included) through `adf-logit` (assumed-density filtering with
 * EP revisits, the recommended per-record logistic learner) in a worker thread, minibatches of 256, prequential log-loss/Brier on the terminal every second, snapshots
 * every 100,000 records and every 10 s (and at the end) to ./snapshots, keeping the last 5; metrics,
 * /healthz and /readyz on 127.0.0.1:9464 (the schema's default).
 */
export const DEFAULT_PIPELINE = {
  source: { type: 'synthetic', kind: 'logistic', dim: 10, records: 500_000, seed: 1 },
  model: { family: 'adf-logit' },
  minibatch: { size: 256, maxWaitMs: 50 },
  worker: true,
  queue: { capacity: 20_000 },
  snapshots: { dir: './snapshots', everyRecords: 100_000, everyMs: 10_000, keep: 5 },
  sinks: { predictions: { type: 'summary' }, badRecords: { type: 'stderr' } },
  progress: { everyMs: 1000 },
} as const;
