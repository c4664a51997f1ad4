import { LiveView } from '../monitoring/live-view.js';
import { PipelineMetrics } from '../monitoring/pipeline-metrics.js';
import { summariseCoefficients } from '../monitoring/summarise-coefficients.js';
import { vbLogitOnlineFamily } from '../src/models/vb-logit/online-family.js';
import { syntheticLogistic } from './synthetic-logistic.js';

/**
 * What the live page costs the process: (1) the coefficient summary the monitor takes with the
 * posterior summary (at most once a second): top 10 by |mean| and 32 posterior draws of
 * vb-logit-online, next to `summary()` (whose condition number needs the O(d³) eigenvalues), at
 * d = 10, 100, 400; (2) one live frame (read from the registry every 500 ms) with 16 partitions.
 * Medians of wall time (each call right after a one-record update, as in the monitor); the ratios say how the page's share compares to what the monitor already
 * spends.
 */
for (const d of [10, 100, 400]) {
  const { x, y } = syntheticLogistic(4 * d + 200, d, 5);
  const model = vbLogitOnlineFamily.create(d);
  model.update({ x, y, n: y.length, d });
  // As in the monitor: right after an update, whose reset drops the sampler's cached factor.
  const one = { x: x.subarray(0, d), y: y.subarray(0, 1), n: 1, d };
  const afterUpdate = (work: () => void): number => {
    const times = Array.from({ length: 6 }, () => {
      model.update(one);
      const start = performance.now();
      work();
      return performance.now() - start;
    }).slice(1).sort((a, b) => a - b);
    return times[2];
  };
  const summaryMs = afterUpdate(() => model.summary());
  const coefficientsMs = afterUpdate(() => summariseCoefficients(model));
  process.stdout.write(`d = ${String(d).padStart(3)}: summary() ${summaryMs.toFixed(3)} ms, coefficients (top 10, 32 draws) ${coefficientsMs.toFixed(3)} ms, ratio ${(coefficientsMs / summaryMs).toFixed(2)}; once a second: ${(coefficientsMs / 10).toFixed(3)} % of a core\n`);
}

const metrics = new PipelineMetrics({ pipeline: 'bench' });
for (let p = 0; p < 16; p++) {
  const recorder = metrics.model('vb-logit-online', String(p));
  recorder.recordLearned(1000, 0.01);
  for (let i = 0; i < 1000; i++) recorder.recordPrediction((i % 100) / 100, i % 2);
  recorder.setCoefficients({ index: Array.from({ length: 10 }, (_, j) => j), mean: Array.from({ length: 10 }, () => 0.5), sd: Array.from({ length: 10 }, () => 0.1) });
  metrics.setConsumerLag('events', p, 10);
}
const live = new LiveView({ metrics });
const frames: number[] = [];
for (let i = 0; i < 20; i++) {
  const start = performance.now();
  await live.sample();
  frames.push(performance.now() - start);
}
frames.sort((a, b) => a - b);
const frameMs = frames[Math.floor(frames.length / 2)];
process.stdout.write(`one frame, 16 partitions: ${frameMs.toFixed(3)} ms (median of 20); every 500 ms: ${(frameMs / 5).toFixed(3)} % of a core; JSON ${JSON.stringify(live.history().at(-1)).length} bytes\n`);
