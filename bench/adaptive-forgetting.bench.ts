import { LinUcbPolicy, simulateBandit, ThompsonPolicy, type BanditPolicy, type SimulatedBanditOptions } from '../src/bandit/index.js';
import { createModel } from '../src/registry.js';
import { correlatedLogistic } from './correlated-logistic.js';
import { prequentialScores } from './prequential-scores.js';

/**
 * Adaptive forgetting (issue 28, item 4). Prequential (test-then-train) log-loss of `adf-logit` and
 * `vb-logit-online` on seeded logistic streams ({@link correlatedLogistic}, n = 20,000, p = 10 and
 * 25): stationary, and drifting (the weights change half-way: the second half is another seed's
 * stream). Per learner: `forgetting: 'none'` (the default before adaptive forgetting), every fixed
 * factor of a grid applied by `forget()` every 100 records (hand-tuned: the best of the grid is
 * reported), and the adaptive default; log-loss over the whole stream and over the second half, with
 * ratios, and the CPU time of the adaptive default against `none` (same process). Then Thompson
 * sampling on drifting arms (`SimulatedBandit` random-walk drift, two speeds): `forgetting: 'none'`, the
 * adaptive default, hand-tuned `forget` factors, and LinUCB.
 * `node dist/bench/adaptive-forgetting.bench.js [n] [bandit steps]`.
 */
const n = Number(process.argv[2] ?? 20_000);
const T = Number(process.argv[3] ?? 20_000);
const GRID = [0.995, 0.99, 0.98, 0.95, 0.9, 0.8, 0.6];
const EVERY = 100;
type Learner = 'adf-logit' | 'vb-logit-online';

function driftingStream(d: number, seed: number): { x: Float64Array; y: Float64Array } {
  const first = correlatedLogistic(n, d, seed);
  const second = correlatedLogistic(n, d, seed + 1000);
  const half = n / 2;
  const x = first.x.slice();
  const y = first.y.slice();
  x.set(second.x.subarray(half * d), half * d);
  y.set(second.y.subarray(half), half);
  return { x, y };
}

/** Prequential probabilities of a learner (options, and a fixed factor applied every {@link EVERY} records when given), and the CPU seconds it took. */
function prequential(learner: Learner, options: object, data: { x: Float64Array; y: Float64Array }, d: number, factor?: number): { prob: Float64Array; cpu: number } {
  const model = createModel(learner, d, options);
  const prob = new Float64Array(n);
  const start = process.cpuUsage();
  for (let r = 0; r < n; r++) {
    prob[r] = model.predict(data.x, r * d).mean;
    model.update({ x: data.x.subarray(r * d, (r + 1) * d), y: data.y.subarray(r, r + 1), n: 1, d });
    if (factor !== undefined && (r + 1) % EVERY === 0) model.forget!(factor);
  }
  const used = process.cpuUsage(start);
  return { prob, cpu: (used.user + used.system) / 1e6 };
}

process.stdout.write(`adaptive forgetting: prequential log-loss, n = ${n.toLocaleString('en-US')} (drifting: the weights change at record ${(n / 2).toLocaleString('en-US')}), correlated features (bench/correlated-logistic.ts), seed 2016; fixed factors applied by forget() every ${EVERY} records\n`);
for (const d of [10, 25]) {
  for (const drift of [false, true]) {
    const data = drift ? driftingStream(d, 2016) : correlatedLogistic(n, d, 2016);
    process.stdout.write(`\np = ${d}, ${drift ? 'drifting' : 'stationary'}\n  learner            setting            log-loss  2nd half   CPU s\n`);
    for (const learner of ['adf-logit', 'vb-logit-online'] as const) {
      const score = (prob: Float64Array): [number, number] => [prequentialScores(prob, data.y).logLoss, prequentialScores(prob, data.y, n / 2, n).logLoss];
      const line = (setting: string, [all, late]: [number, number], cpu: number): void => {
        process.stdout.write(`  ${learner.padEnd(18)} ${setting.padEnd(17)} ${all.toFixed(4).padStart(9)} ${late.toFixed(4).padStart(9)} ${cpu.toFixed(2).padStart(7)}\n`);
      };
      const none = prequential(learner, { forgetting: 'none' }, data, d);
      const noneScore = score(none.prob);
      line('none (before)', noneScore, none.cpu);
      let best = { factor: 1, score: noneScore };
      for (const factor of GRID) {
        const run = prequential(learner, { forgetting: 'none' }, data, d, factor);
        const s = score(run.prob);
        line(`forget ${factor}`, s, run.cpu);
        if (s[1] < best.score[1]) best = { factor, score: s };
      }
      const adaptive = prequential(learner, {}, data, d);
      const adaptiveScore = score(adaptive.prob);
      line('adaptive (default)', adaptiveScore, adaptive.cpu);
      process.stdout.write(`  ${learner}: adaptive / none: log-loss ${(adaptiveScore[0] / noneScore[0]).toFixed(4)}, 2nd half ${(adaptiveScore[1] / noneScore[1]).toFixed(4)}; adaptive / best fixed (forget ${best.factor}, by 2nd half): log-loss ${(adaptiveScore[0] / best.score[0]).toFixed(4)}, 2nd half ${(adaptiveScore[1] / best.score[1]).toFixed(4)}; CPU adaptive / none ${(adaptive.cpu / none.cpu).toFixed(2)}×\n`);
    }
  }
}

const K = 5;
const D = 10;
const SEEDS = [1, 2, 3, 4, 5];
const DRIFTS = [{ every: 100, scale: 0.1 }, { every: 100, scale: 0.3 }];
const binary = (seed: number, options: object, forget?: number): BanditPolicy => new ThompsonPolicy({ arms: K, dim: D, seed, model: { family: 'vb-logit-online', options }, forget });
const policies: [string, (seed: number) => BanditPolicy][] = [
  ['thompson, forgetting none (before)', (seed) => binary(seed, { forgetting: 'none' })],
  ['thompson, adaptive (default)', (seed) => new ThompsonPolicy({ arms: K, dim: D, seed })],
  ['thompson, none, forget 0.999', (seed) => binary(seed, { forgetting: 'none' }, 0.999)],
  ['thompson, none, forget 0.995', (seed) => binary(seed, { forgetting: 'none' }, 0.995)],
  ['LinUCB (alpha 1)', (seed) => new LinUcbPolicy({ arms: K, dim: D, seed })],
];
for (const drift of DRIFTS) {
  process.stdout.write(`\nThompson sampling on drifting arms: K = ${K}, d = ${D}, T = ${T.toLocaleString('en-US')}, logistic rewards, every ${drift.every} steps each arm weight moves by N(0, ${drift.scale}²); pseudo-regret mean over seeds ${SEEDS.join(', ')} [each seed], CPU s\n`);
  const regrets = new Map<string, number[]>();
  for (const [name, make] of policies) {
    const start = process.cpuUsage();
    const values = SEEDS.map((seed) => {
      const world: SimulatedBanditOptions = { arms: K, dim: D, seed, rewards: 'logistic', drift };
      return simulateBandit(make(seed), world, T).cumulative[T - 1];
    });
    const used = process.cpuUsage(start);
    regrets.set(name, values);
    const mean = values.reduce((s, v) => s + v, 0) / values.length;
    process.stdout.write(`  ${name.padEnd(36)} ${mean.toFixed(0).padStart(7)}   [${values.map((v) => v.toFixed(0)).join(' ')}]   ${((used.user + used.system) / 1e6).toFixed(1)}\n`);
  }
  const meanOf = (name: string): number => regrets.get(name)!.reduce((s, v) => s + v, 0) / SEEDS.length;
  process.stdout.write(`  adaptive / LinUCB ${(meanOf('thompson, adaptive (default)') / meanOf('LinUCB (alpha 1)')).toFixed(3)}; adaptive / none ${(meanOf('thompson, adaptive (default)') / meanOf('thompson, forgetting none (before)')).toFixed(3)}\n`);
}
