import { parseArgs } from 'node:util';
import { TRUE_ORDER } from './paper-polynomial-data.js';
import { DEFAULT_MODEL_SELECTION, runModelSelection } from './run-model-selection.js';
import { writeModelSelectionOutputs } from './write-model-selection-outputs.js';

/**
 * Model selection by the variational bound (Drugowitsch §2.6.4, §3.6.3): which polynomial order made the data?
 *
 *   node dist/examples/model-selection/main.js [--out example-output/model-selection] [--seed 1]
 */
const { values } = parseArgs({ options: { out: { type: 'string', default: 'example-output/model-selection' }, seed: { type: 'string' } }, strict: true });
const seed = Number(values.seed ?? DEFAULT_MODEL_SELECTION.seed);
if (!Number.isSafeInteger(seed)) {
  process.stderr.write('--seed must be an integer\n');
  process.exit(2);
}
const { regression, classification } = runModelSelection({ ...DEFAULT_MODEL_SELECTION, seed });
const files = await writeModelSelectionOutputs(values.out, regression, classification);
for (const selection of [regression, classification]) {
  const [best, second] = selection.ranking;
  process.stdout.write(`${selection.family} on ${selection.data.n} records: best order ${selection.bestOrder} (true ${TRUE_ORDER}), bound ${best.bound.toFixed(2)}, ` +
    `P ≈ ${best.probability.toFixed(3)}; runner-up ${second.name} at Δ ${second.delta.toFixed(2)}\n`);
}
process.stdout.write(`wrote ${files.join(', ')}\n`);
