import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { csvText } from '../shared/csv-text.js';
import { DEFAULT_DIRECT_QUANTIZED, runDirectQuantized } from './run-direct-quantized.js';

/**
 * DIRECT with 4-bit posterior samples.
 *
 *   node dist/examples/direct-quantized/main.js [--out example-output/direct-quantized] [--records 5000] [--samples 64]
 *
 * Writes `samples.q4` (the packed codes, one sample per ⌈b/2⌉ bytes), `samples.json` (how to decode
 * them) and `scores.csv` (test points: truth, exact predictive mean, mean of the integer-code scores).
 */
const { values } = parseArgs({ options: { out: { type: 'string', default: 'example-output/direct-quantized' }, records: { type: 'string' }, samples: { type: 'string' } }, strict: true });
const settings = { ...DEFAULT_DIRECT_QUANTIZED, records: Number(values.records ?? DEFAULT_DIRECT_QUANTIZED.records), samples: Number(values.samples ?? DEFAULT_DIRECT_QUANTIZED.samples) };
if (!(Number.isInteger(settings.records) && settings.records > 0 && Number.isInteger(settings.samples) && settings.samples > 0)) {
  process.stderr.write('--records and --samples must be positive integers\n');
  process.exit(2);
}
const results = runDirectQuantized(settings);
await mkdir(values.out, { recursive: true });
await writeFile(join(values.out, 'samples.q4'), results.codes);
await writeFile(join(values.out, 'samples.json'), `${JSON.stringify({ b: results.b, samples: settings.samples, bytesPerSample: results.bytesPerSample, layout: 'weight 2i in the low nibble of byte i, 2i+1 in the high nibble; w = lo + step * code' }, null, 2)}\n`);
await writeFile(join(values.out, 'scores.csv'), csvText(['x1', 'x2', 'truth', 'predictive_mean', 'code_mean'], results.test.map((t) => [...t.x, t.truth, t.predictiveMean, t.codeMean])));
process.stdout.write(`direct on ${settings.records} streamed records, ${results.b} random Fourier features; expected sparsity ${results.sparsity.toFixed(3)}\n` +
  `${settings.samples} posterior samples as 4-bit codes: ${results.bytesPerSample} bytes each (float64 weights: ${8 * results.b} bytes)\n` +
  `integer-code score vs decoded weights: max |difference| ${results.maxCodeError.toExponential(1)}\n` +
  `test RMSE against the true f: exact predictive mean ${results.rmsePredictive.toFixed(4)}, mean of ${settings.samples} integer-code scores ${results.rmseCodes.toFixed(4)}\n` +
  `wrote ${['samples.q4', 'samples.json', 'scores.csv'].map((f) => join(values.out, f)).join(', ')}\n`);
