import { vbLogitOnlineFamily } from '../src/models/vb-logit/online-family.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import type { ModelMetricsRecorder } from '../monitoring/model-metrics-recorder.js';
import { formatCount, median, medianMs } from './measure.js';
import { syntheticLogistic } from './synthetic-logistic.js';

/**
 * Overhead of metrics on the learn path: a test-then-train loop (predict, score, update) of
 * vb-logit-online at p = 10, in process, with metrics off and on (scoring, update timing and
 * counts recorded on a `PipelineMetrics` model recorder). Throughput is per second of this
 * thread's CPU time (`process.cpuUsage`), not wall time, so that other processes on a shared
 * machine do not count; rounds alternate off/on and the best of each is reported, then the median
 * ratio of the paired rounds. A scrape's cost is printed separately.
 */
const d = 10;
const n = 20_000;
const { x, y } = syntheticLogistic(n, d, 11);
const metrics = new PipelineMetrics({ pipeline: 'bench' });

/** One pass of test-then-train over the data; `timed` reads the clock around each update (the metrics need it; the runtime's learn outcome measures it anyway). */
function learnLoop(recorder: ModelMetricsRecorder | undefined, batchSize: number, timed: boolean): () => number {
  return () => {
    const model = vbLogitOnlineFamily.create(d);
    let loss = 0;
    let seconds = 0;
    for (let start = 0; start < n; start += batchSize) {
      const rows = Math.min(batchSize, n - start);
      for (let r = start; r < start + rows; r++) {
        const predictive = model.predict(x, r * d);
        const logLoss = -predictive.logProb(y[r]);
        loss += logLoss;
        recorder?.recordPrediction(predictive.prob, y[r], logLoss);
      }
      const batch = { x: x.subarray(start * d, (start + rows) * d), y: y.subarray(start, start + rows), n: rows, d, firstRow: start + 1 };
      const begin = timed ? performance.now() : 0;
      const stats = model.update(batch);
      if (timed) seconds = (performance.now() - begin) / 1000;
      recorder?.recordLearned(stats.records, seconds);
    }
    if (!Number.isFinite(loss)) throw new Error('non-finite log-loss');
    recorder?.setPosteriorSummary(model.summary());
    return n;
  };
}

/** Units per CPU-second of `work` (which returns the units it processed), after one warm-up call, over at least `minCpuMs`. */
function cpuThroughput(work: () => number, minCpuMs: number): number {
  work();
  const start = process.cpuUsage();
  let units = 0;
  let cpuMs = 0;
  do {
    units += work();
    const used = process.cpuUsage(start);
    cpuMs = (used.user + used.system) / 1000;
  } while (cpuMs < minCpuMs);
  return (units / cpuMs) * 1000;
}

const best = (values: number[]): number => Math.max(...values);
process.stdout.write(`metrics overhead on the learn path: vb-logit-online, d = ${d}, ${formatCount(n)} records per pass, test-then-train, one core\n`);
process.stdout.write('update size  clock read around updates        off, best   on, best   best on/off   loss   median paired on/off  (records per CPU-s)\n');
const cases = [
  { batchSize: 1, offTimed: false, label: 'only with metrics on' },
  { batchSize: 1, offTimed: true, label: 'on and off (as the runtime)' },
  { batchSize: 100, offTimed: false, label: 'only with metrics on' },
];
for (const { batchSize, offTimed, label } of cases) {
  const off: number[] = [];
  const on: number[] = [];
  const recorder = metrics.model('vb-logit-online', `batch-${batchSize}`);
  for (let round = 0; round < 7; round++) {
    off.push(cpuThroughput(learnLoop(undefined, batchSize, offTimed), 500));
    on.push(cpuThroughput(learnLoop(recorder, batchSize, true), 500));
  }
  const ratio = best(on) / best(off);
  const paired = median(on.map((v, i) => v / off[i]));
  process.stdout.write(`${String(batchSize).padStart(11)}  ${label.padEnd(28)}  ${formatCount(best(off)).padStart(11)}  ${formatCount(best(on)).padStart(9)}  ${ratio.toFixed(3).padStart(12)}  ${((1 - ratio) * 100).toFixed(1).padStart(4)}%  ${paired.toFixed(3).padStart(21)}\n`);
}
let scrapeBytes = 0;
const scrapeMs = medianMs(() => {
  void metrics.metrics().then((text) => (scrapeBytes = text.length));
}, 9);
await metrics.metrics();
process.stdout.write(`a scrape (render /metrics, ${formatCount(scrapeBytes)} bytes): median ${scrapeMs.toFixed(2)} ms of synchronous work\n`);
