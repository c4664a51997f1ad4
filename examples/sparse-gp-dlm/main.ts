import { parseArgs } from 'node:util';
import { DEFAULT_SPARSE_GP_DLM, runSparseGpDlm } from './run-sparse-gp-dlm.js';
import { writeSparseGpOutputs } from './write-sparse-gp-outputs.js';

/**
 * Minibatch DLM over a stream with a picture.
 *
 *   node dist/examples/sparse-gp-dlm/main.js [--out example-output/sparse-gp-dlm] [--records 4000]
 */
const { values } = parseArgs({ options: { out: { type: 'string', default: 'example-output/sparse-gp-dlm' }, records: { type: 'string' } }, strict: true });
const settings = { ...DEFAULT_SPARSE_GP_DLM, records: Number(values.records ?? DEFAULT_SPARSE_GP_DLM.records) };
if (!(Number.isInteger(settings.records) && settings.records >= settings.batchSize)) {
  process.stderr.write(`--records must be an integer >= ${settings.batchSize}\n`);
  process.exit(2);
}
const results = runSparseGpDlm(settings);
const files = await writeSparseGpOutputs(values.out, results, settings.level);
process.stdout.write(`sparse-gp (log-loss DLM, M = ${settings.inducing}) on ${settings.records} streamed records in minibatches of ${settings.batchSize}: ${results.steps} Adam steps, learned noise variance ${results.noiseVariance.toFixed(4)} (true 0.04)\n` +
  `held-out: RMSE ${results.heldOutRmse.toFixed(4)} against noisy labels (noise sd 0.2), ${(100 * results.coverage).toFixed(1)}% inside the ${settings.level * 100}% band\n` +
  `wrote ${files.join(', ')}\n`);
