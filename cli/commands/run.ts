import { parseArgs } from 'node:util';
import { ConfigError } from '../../src/core/config-error.js';
import { VbLogitOnlineModel } from '../../src/models/vb-logit/online-model.js';
import { Rng } from '../../src/rng/rng.js';

export const RUN_USAGE = 'usage: vbstream run [--records N] [--dim D] [--seed S] [--every K]';

/**
 * `vbstream run`: the embedded default pipeline. A seeded synthetic logistic stream (known true
 * weights, a bias column) flows record by record through the online VB-logit model; every K
 * records it prints the prequential (test-then-train) log-loss and Brier score and the throughput,
 * and at the end the posterior mean ± sd next to the truth. Ctrl-C stops early and still prints the
 * summary. Returns the exit code.
 */
export async function runCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { records: { type: 'string' }, dim: { type: 'string' }, seed: { type: 'string' }, every: { type: 'string' } },
    strict: true,
  });
  const integer = (name: string, text: string | undefined, fallback: number): number => {
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value < 1) throw new ConfigError(`--${name} must be a positive integer\n${RUN_USAGE}`, { field: `--${name}`, value: text });
    return value;
  };
  const records = integer('records', values.records, 200_000);
  const d = integer('dim', values.dim, 10);
  const seed = integer('seed', values.seed, 1);
  const every = integer('every', values.every, 20_000);
  const rng = Rng.fromSeed(seed);
  const truth = Float64Array.from({ length: d }, (_, j) => (j === 0 ? -0.5 : rng.normal()));
  const model = VbLogitOnlineModel.create(d);
  const x = new Float64Array(d);
  const y = new Float64Array(1);
  const batch = { x, y, n: 1, d, firstRow: 1 };
  let stop = false;
  const onSignal = (): void => { stop = true; };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.stdout.write(`vbstream: online VB logistic regression (vb-logit-online, d=${d}) on a synthetic stream of ${records} records, seed ${seed}\n`);
  process.stdout.write('records   log-loss(window)  brier(window)  log-loss(all)  records/s\n');
  let totalLogLoss = 0;
  let windowLogLoss = 0;
  let windowBrier = 0;
  let windowCount = 0;
  let windowStart = performance.now();
  let seen = 0;
  while (seen < records && !stop) {
    x[0] = 1;
    let score = truth[0];
    for (let j = 1; j < d; j++) {
      x[j] = rng.normal();
      score += truth[j] * x[j];
    }
    y[0] = rng.nextDouble() < 1 / (1 + Math.exp(-score)) ? 1 : 0;
    const predictive = model.predict(x);
    const loss = -predictive.logProb(y[0]);
    totalLogLoss += loss;
    windowLogLoss += loss;
    windowBrier += (predictive.prob - y[0]) ** 2;
    windowCount++;
    model.update({ ...batch, firstRow: seen + 1 });
    seen++;
    if (seen % every === 0 || seen === records) {
      const now = performance.now();
      const rate = (windowCount / (now - windowStart)) * 1000;
      process.stdout.write(`${String(seen).padStart(7)}   ${(windowLogLoss / windowCount).toFixed(4).padStart(16)}  ${(windowBrier / windowCount).toFixed(4).padStart(13)}  ${(totalLogLoss / seen).toFixed(4).padStart(13)}  ${Math.round(rate).toString().padStart(9)}\n`);
      windowLogLoss = 0;
      windowBrier = 0;
      windowCount = 0;
      windowStart = now;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  const { w, V } = model.posterior;
  process.stdout.write(`\nposterior after ${seen} records${stop ? ' (stopped by signal)' : ''}:\n   j      truth       mean         sd\n`);
  for (let j = 0; j < d; j++) {
    process.stdout.write(`${String(j + 1).padStart(4)} ${truth[j].toFixed(4).padStart(10)} ${w[j].toFixed(4).padStart(10)} ${Math.sqrt(V[j * d + j]).toFixed(4).padStart(10)}\n`);
  }
  return 0;
}
