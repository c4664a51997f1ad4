import { parseArgs } from 'node:util';
import { readLabelledCsv } from '../../connectors/file/read-labelled-csv.js';
import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { getFitAdapter } from '../adapters/index.js';
import { writeFileAtomic } from '../../connectors/file/write-file-atomic.js';
import { usageOf } from '../command-help.js';

function parseOptions(text: string | undefined, allowed: readonly string[], model: string): { [key: string]: unknown } {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`--options is not valid JSON: ${(cause as Error).message}`, { field: '--options' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError('--options must be a JSON object', { field: '--options', value: parsed });
  for (const key of Object.keys(parsed)) {
    if (!allowed.includes(key)) throw new ConfigError(`unknown option for ${model}; accepted: ${allowed.join(', ')}`, { field: key });
  }
  return parsed as { [key: string]: unknown };
}

function withSource(error: unknown, source: string): unknown {
  if (!(error instanceof VbstreamError) || error.location.source !== undefined || (error.kind !== 'input' && error.kind !== 'shape')) return error;
  return new VbstreamError(error.kind, error.reason, { ...error.location, source }, error.retriable, { cause: error });
}

/**
 * `vbstream fit`: reads a training CSV, fits the chosen model on all rows, optionally predicts a
 * test CSV, and only then writes posterior.json (and predictions.json) atomically, so an error
 * anywhere leaves no partial output. Returns the process exit code.
 */
export async function fitCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string' }, input: { type: 'string' }, out: { type: 'string' },
      predict: { type: 'string' }, predictions: { type: 'string' }, options: { type: 'string' }, label: { type: 'string' },
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
  const adapter = getFitAdapter(values.model);
  const options = parseOptions(values.options, adapter.optionKeys, adapter.id);
  const train = await readLabelledCsv(values.input, { label: values.label });
  let outcome;
  try {
    outcome = adapter.fit(train, options);
  } catch (error) {
    throw withSource(error, values.input);
  }
  let predictions: string | undefined;
  if (values.predict !== undefined) {
    const test = await readLabelledCsv(values.predict, { label: values.label, expectFeatures: train.features, requireLabel: false });
    try {
      predictions = JSON.stringify(outcome.predict(test.x, test.n));
    } catch (error) {
      throw withSource(error, values.predict);
    }
  }
  await writeFileAtomic(values.out, JSON.stringify(outcome.posterior));
  if (predictions !== undefined && values.predictions !== undefined) await writeFileAtomic(values.predictions, predictions);
  return 0;
}
