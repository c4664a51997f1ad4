import { parseArgs } from 'node:util';
import { readLabelledCsv } from '../../connectors/file/read-labelled-csv.js';
import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { DEPRECATED_FIT_IDS, getFitAdapter } from '../adapters/index.js';
import { runFitJob } from '../run-fit-job.js';
import { writeFileAtomic } from '../../connectors/file/write-file-atomic.js';
import { usageOf } from '../command-help.js';

function parseOptions(text: string | undefined, allowed: readonly string[] | undefined, model: string): { [key: string]: unknown } {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`--options is not valid JSON: ${(cause as Error).message}`, { field: '--options' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError('--options must be a JSON object', { field: '--options', value: parsed });
  for (const key of Object.keys(parsed)) {
    if (allowed !== undefined && !allowed.includes(key)) throw new ConfigError(`unknown option for ${model}; accepted: ${allowed.join(', ')}`, { field: key });
  }
  return parsed as { [key: string]: unknown };
}

/** The n×d rows of `x` with a constant 1 before each: the design of a model with an intercept. */
function withConstantColumn(x: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n * (d + 1));
  for (let r = 0; r < n; r++) {
    out[r * (d + 1)] = 1;
    out.set(x.subarray(r * d, (r + 1) * d), r * (d + 1) + 1);
  }
  return out;
}

const count = (n: number): string => n.toLocaleString('en-US');

function withSource(error: unknown, source: string): unknown {
  if (!(error instanceof VbstreamError) || error.location.source !== undefined || (error.kind !== 'input' && error.kind !== 'shape')) return error;
  return new VbstreamError(error.kind, error.reason, { ...error.location, source }, error.retriable, { cause: error });
}

/**
 * `vbstream fit`: reads a training CSV (with `--intercept`, a constant 1 before its features, named
 * `intercept` in the posterior's `features`), fits the chosen model on all rows in a worker thread
 * (printing progress on stderr every second of a longer fit), optionally predicts a test CSV, and
 * only then writes posterior.json (and predictions.json) atomically, so an error anywhere leaves no
 * partial output; ends with a one-line result on stdout. Returns the process exit code.
 */
export async function fitCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string' }, input: { type: 'string' }, out: { type: 'string' },
      predict: { type: 'string' }, predictions: { type: 'string' }, options: { type: 'string' }, label: { type: 'string' }, intercept: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.model === undefined || values.input === undefined || values.out === undefined) {
    throw new ConfigError(`--model, --input and --out are required\n${usageOf('fit')}`);
  }
  if ((values.predict === undefined) !== (values.predictions === undefined)) {
    throw new ConfigError(`--predict and --predictions go together\n${usageOf('fit')}`);
  }
  const deprecated = DEPRECATED_FIT_IDS[values.model];
  let adapter;
  let options;
  if (deprecated === undefined) {
    adapter = getFitAdapter(values.model);
    options = parseOptions(values.options, adapter.optionKeys, adapter.id);
  } else {
    const given = parseOptions(values.options, undefined, values.model);
    adapter = getFitAdapter(deprecated.id(given));
    options = { ...deprecated.options, ...parseOptions(values.options, adapter.optionKeys, adapter.id) };
    process.stderr.write(`vbstream fit: --model ${values.model} is deprecated; use --model ${adapter.id} with --options '${JSON.stringify(deprecated.options)}'\n`);
  }
  const read = await readLabelledCsv(values.input, { label: values.label });
  const readTest = values.predict === undefined ? undefined : await readLabelledCsv(values.predict, { label: values.label, expectFeatures: read.features, requireLabel: false });
  const train = values.intercept ? { ...read, x: withConstantColumn(read.x, read.n, read.d), d: read.d + 1, features: ['intercept', ...read.features] } : read;
  const test = readTest === undefined || !values.intercept ? readTest : { ...readTest, x: withConstantColumn(readTest.x, readTest.n, readTest.d) };
  const started = performance.now();
  const result = await runFitJob({ model: adapter.id, features: train.features, options, train: { x: train.x, y: train.y, n: train.n, d: train.d }, test: test === undefined ? undefined : { x: test.x, n: test.n } }, (seconds) => {
    process.stderr.write(`fitting ${adapter.id} on ${count(train.n)} records × ${train.d} features … ${seconds} s\n`);
  });
  if (!result.ok) {
    const source = result.stage === 'fit' ? values.input : values.predict ?? values.input;
    if ('error' in result) throw withSource(new VbstreamError(result.error.kind, result.error.reason, result.error.location, result.error.retriable), source);
    throw new Error(result.message);
  }
  await writeFileAtomic(values.out, result.posterior);
  if (result.predictions !== undefined && values.predictions !== undefined) await writeFileAtomic(values.predictions, result.predictions);
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`fit ${adapter.id}: ${count(train.n)} records × ${train.d} features in ${seconds.toFixed(2)} s → ${values.out}${test === undefined ? '' : ` (${count(test.n)} predictions → ${values.predictions})`}\n`);
  return 0;
}
