import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { readLabelledCsv } from '../../connectors/file/read-labelled-csv.js';
import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import type { CandidateBound } from '../../src/selection/candidate-bound.js';
import { checkCandidates } from '../../src/selection/check-candidates.js';
import type { ModelCandidate } from '../../src/selection/model-candidate.js';
import { rankByBound, type RankedCandidate } from '../../src/selection/rank-by-bound.js';
import { usageOf } from '../command-help.js';
import type { SelectJob, SelectJobResult } from '../select-job.js';
import { runWorkerJob } from '../run-worker-job.js';

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${field} is not valid JSON: ${(cause as Error).message}`, { field });
  }
}

/** The candidates of `--candidates` (a JSON array, inline or in a file), with feature columns given by name turned into indices. */
async function candidatesOf(text: string, features: readonly string[]): Promise<ModelCandidate[]> {
  const parsed = parseJson(text.trimStart().startsWith('[') ? text : await readFile(text, 'utf8'), '--candidates');
  if (!Array.isArray(parsed)) throw new ConfigError('--candidates must be a JSON array of {"family", "options", "features", "name"} objects', { field: '--candidates' });
  return parsed.map((candidate: unknown, i) => {
    const columns = (candidate as { features?: { columns?: unknown } } | null)?.features?.columns;
    if (!Array.isArray(columns)) return candidate as ModelCandidate;
    const indices = columns.map((column: unknown) => {
      if (typeof column !== 'string') return column;
      const index = features.indexOf(column);
      if (index < 0) throw new ConfigError(`no feature column "${column}"; the columns are ${features.join(', ')}`, { field: `candidates[${i}].features.columns`, value: column });
      return index;
    });
    const c = candidate as ModelCandidate;
    return { ...c, features: { ...c.features, columns: indices } } as ModelCandidate;
  });
}

/** `--model id --degrees lo..hi [--columns a,b]`: one polynomial candidate per degree. */
function polynomialCandidates(model: string, degrees: string, columns: string | undefined, options: string | undefined, features: readonly string[]): ModelCandidate[] {
  const match = /^(\d+)\.\.(\d+)$/.exec(degrees);
  if (match === null || Number(match[1]) > Number(match[2])) throw new ConfigError('--degrees must be lo..hi with integers 0 ≤ lo ≤ hi', { field: '--degrees', value: degrees });
  const parsed = options === undefined ? {} : parseJson(options, '--options');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError('--options must be a JSON object', { field: '--options', value: parsed });
  const indices = columns?.split(',').map((name) => {
    const index = features.indexOf(name);
    if (index < 0) throw new ConfigError(`no feature column "${name}"; the columns are ${features.join(', ')}`, { field: '--columns', value: name });
    return index;
  });
  const candidates: ModelCandidate[] = [];
  for (let degree = Number(match[1]); degree <= Number(match[2]); degree++) {
    candidates.push({ family: model, options: parsed as { [key: string]: unknown }, features: { type: 'polynomial', degree, ...(indices === undefined ? {} : { columns: indices }) } });
  }
  return candidates;
}

/** The ranking as a text table: rank, candidate, family, features, bound, Δ to the best, approximate posterior probability. */
function rankingTable(ranking: readonly RankedCandidate[]): string {
  const rows = ranking.map((c, i) => [String(i + 1), c.name, c.family, String(c.width), c.bound.toFixed(3), c.delta.toFixed(3), c.probability < 1e-4 && c.probability > 0 ? c.probability.toExponential(1) : c.probability.toFixed(4)]);
  const header = ['rank', 'candidate', 'family', 'features', 'bound', 'Δ', 'P'];
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => r[j].length)));
  const line = (cells: string[]): string => cells.map((cell, j) => (j === 1 || j === 2 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/**
 * `vbstream select`: reads a training CSV, checks the candidates (families whose objective is a lower
 * bound on the log evidence only), fits each on all rows in its own worker thread (`--workers` at a
 * time), and prints the candidates ranked by the bound with Δ to the best and approximate posterior
 * model probabilities ∝ exp(bound) (Drugowitsch §2.6.4), or JSON. Returns the process exit code.
 */
export async function selectCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: 'string' }, candidates: { type: 'string' }, model: { type: 'string' }, degrees: { type: 'string' }, columns: { type: 'string' },
      options: { type: 'string' }, label: { type: 'string' }, workers: { type: 'string' }, json: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.input === undefined || (values.candidates === undefined) === (values.model === undefined)) {
    throw new ConfigError(`--input and either --candidates or --model (with --degrees) are required\n${usageOf('select')}`);
  }
  if (values.model !== undefined && values.degrees === undefined) throw new ConfigError(`--model goes with --degrees lo..hi\n${usageOf('select')}`);
  if (values.candidates !== undefined && (values.degrees !== undefined || values.columns !== undefined || values.options !== undefined)) {
    throw new ConfigError(`--degrees, --columns and --options go with --model; with --candidates each candidate has its own\n${usageOf('select')}`);
  }
  const train = await readLabelledCsv(values.input, { label: values.label });
  const given = values.candidates === undefined
    ? polynomialCandidates(values.model!, values.degrees!, values.columns, values.options, train.features)
    : await candidatesOf(values.candidates, train.features);
  const candidates = checkCandidates(given, train.d);
  const workers = values.workers === undefined ? Math.min(candidates.length, availableParallelism()) : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1) throw new ConfigError('--workers must be a positive integer', { field: '--workers', value: values.workers });
  const data = { x: train.x, y: train.y, n: train.n, d: train.d };
  const started = performance.now();
  const threads = Math.min(workers, candidates.length);
  let finished = 0;
  const ticker = setInterval(() => {
    process.stderr.write(`selecting: ${finished} of ${threads} workers done … ${Math.round((performance.now() - started) / 1000)} s\n`);
  }, 10_000);
  const script = new URL('../select-worker.js', import.meta.url);
  // Candidate i goes to worker i mod threads, so each worker starts once and the degrees of a sweep spread evenly.
  const shares = Array.from({ length: threads }, (_, w) => candidates.filter((_, i) => i % threads === w));
  let results: SelectJobResult[];
  try {
    results = await Promise.all(shares.map(async (share) => {
      const result = await runWorkerJob<SelectJob, SelectJobResult>(script, { candidates: share, train: data });
      finished++;
      return result;
    }));
  } finally {
    clearInterval(ticker);
  }
  const byName = new Map<string, CandidateBound>();
  for (const result of results) {
    if (!result.ok) {
      if ('message' in result) throw new Error(`candidate "${result.candidate}": ${result.message}`);
      const { kind, reason, location, retriable } = result.error;
      const where = kind === 'input' || kind === 'shape' ? { ...location, source: location.source ?? values.input } : location;
      throw new VbstreamError(kind, `candidate "${result.candidate}": ${reason}`, where, retriable);
    }
    for (const bound of result.bounds) byName.set(bound.name, bound);
  }
  // In the candidates' order, so that equal bounds rank as the candidates were given.
  const bounds = candidates.map((candidate) => byName.get(candidate.name)!);
  const ranking = rankByBound(bounds);
  const seconds = (performance.now() - started) / 1000;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ records: train.n, features: train.d, ranking: ranking.map((c, i) => ({ rank: i + 1, ...c })) }, null, 2)}\n`);
  } else {
    process.stdout.write(`${rankingTable(ranking)}\n\nbest: ${ranking[0].name} — ${candidates.length} candidates fitted on ${train.n} records in ${seconds.toFixed(2)} s (${threads} worker${threads === 1 ? '' : 's'}); ` +
      'bound ≤ ln p(y | X), P ∝ exp(bound) with equal prior odds\n');
  }
  return 0;
}
