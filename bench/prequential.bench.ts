import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createModel } from '../src/registry.js';
import { correlatedLogistic } from './correlated-logistic.js';
import { formatCount } from './measure.js';
import { prequentialScores } from './prequential-scores.js';

/**
 * Prequential (test-then-train) comparison on one seeded 100k-record logistic stream, p = 10:
 * each record is predicted, scored, then learnt. Our per-record learners run here; River's
 * LogisticRegression and Vowpal Wabbit run in bench/python/prequential.py on the same stream (a
 * temp file) when python3 and the packages are there, and write their per-record probabilities
 * back, so every learner is scored by the one {@link prequentialScores}.
 */
const n = 100_000;
const d = 10;
const seed = 2016;
const data = correlatedLogistic(n, d, seed);

interface Run { readonly name: string; readonly settings: string; readonly prob: Float64Array; readonly recordsPerSecond: number; readonly ours: boolean; readonly riverLogLoss?: number }

function testThenTrain(name: 'adf-logit' | 'vb-logit-online', settings: string): Run {
  const model = createModel(name, d);
  const prob = new Float64Array(n);
  const start = performance.now();
  for (let r = 0; r < n; r++) {
    prob[r] = model.predict(data.x, r * d).mean;
    model.update({ x: data.x.subarray(r * d, (r + 1) * d), y: data.y.subarray(r, r + 1), n: 1, d });
  }
  return { name, settings, prob, recordsPerSecond: (n / (performance.now() - start)) * 1000, ours: true };
}

function pythonRuns(): { runs: Run[]; messages: string[] } {
  const folder = mkdtempSync(join(tmpdir(), 'vbstream-prequential-'));
  try {
    writeFileSync(join(folder, 'x.f64'), new Uint8Array(data.x.buffer, data.x.byteOffset, data.x.byteLength));
    writeFileSync(join(folder, 'y.f64'), new Uint8Array(data.y.buffer, data.y.byteOffset, data.y.byteLength));
    writeFileSync(join(folder, 'meta.json'), JSON.stringify({ n, d, seed }));
    const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'python', 'prequential.py');
    const result = spawnSync('python3', [script, folder], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 900_000 });
    if (result.error !== undefined) return { runs: [], messages: [`python part skipped: cannot run python3 (${result.error.message})`] };
    const runs: Run[] = [];
    const messages: string[] = [];
    for (const line of result.stdout.split('\n').filter((l) => l.trim().startsWith('{'))) {
      const report = JSON.parse(line) as { skip?: string; learner?: string; settings?: string; file?: string; recordsPerSecond?: number; riverLogLoss?: number | null };
      if (report.skip !== undefined) { messages.push(`python part: ${report.skip}`); continue; }
      const bytes = readFileSync(report.file!);
      const prob = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      runs.push({ name: report.learner!, settings: report.settings!, prob, recordsPerSecond: report.recordsPerSecond!, ours: false, riverLogLoss: report.riverLogLoss ?? undefined });
    }
    if (result.status !== 0) messages.push(`python part stopped early (exit ${result.status ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return { runs, messages };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const runs: Run[] = [
  testThenTrain('adf-logit', "createModel('adf-logit', 10) (prior N(0, I), 32 nodes)"),
  testThenTrain('vb-logit-online', "createModel('vb-logit-online', 10) (prior N(0, I/d))"),
];
const python = pythonRuns();
runs.push(...python.runs);

const positives = data.y.reduce((s, v) => s + v, 0);
process.stdout.write(`Prequential test-then-train, one seeded stream: n = ${formatCount(n)}, p = ${d} (x₀ = 1; AR(1) correlated features, ρ = 0.7, offsets up to 3, scales 0.3–4; latent score sd 3), ${(positives / n * 100).toFixed(1)}% positive, seed ${seed}\n`);
process.stdout.write('log-loss: mean −log p(y) (p clipped to [1e-15, 1 − 1e-15]); ECE: 10 equal-width bins, Σ (n_b/n)|p̄_b − ȳ_b|; worst bin: largest share of ECE\n\n');
process.stdout.write('learner              log-loss   last 50k     Brier      ECE   worst bin: range      n     p̄      ȳ    records/s\n');
const truth = { name: 'truth (true p)', prob: data.p };
for (const run of [...runs, truth]) {
  const all = prequentialScores(run.prob, data.y);
  const late = prequentialScores(run.prob, data.y, n / 2, n);
  const b = all.worstBin;
  const rate = 'recordsPerSecond' in run ? formatCount(run.recordsPerSecond) : '—';
  process.stdout.write(`${run.name.padEnd(18)} ${all.logLoss.toFixed(4).padStart(10)} ${late.logLoss.toFixed(4).padStart(10)} ${all.brier.toFixed(4).padStart(9)} ${all.ece.toFixed(4).padStart(8)}   [${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}) ${formatCount(b.count).padStart(8)} ${b.meanProb.toFixed(3).padStart(6)} ${b.rate.toFixed(3).padStart(6)} ${rate.padStart(12)}\n`);
}

process.stdout.write('\nlog-loss by stretch of the stream (early vs late); ECE over the same stretches\n');
const windows: [number, number][] = [[0, 1000], [1000, 10_000], [10_000, 50_000], [50_000, 100_000]];
process.stdout.write(`learner            ${windows.map(([a, b]) => `LL ${a / 1000}k–${b / 1000}k`.padStart(14)).join('')}${windows.map(([a, b]) => `ECE ${a / 1000}k–${b / 1000}k`.padStart(15)).join('')}\n`);
for (const run of [...runs, truth]) {
  const scores = windows.map(([a, b]) => prequentialScores(run.prob, data.y, a, b));
  process.stdout.write(`${run.name.padEnd(18)} ${scores.map((s) => s.logLoss.toFixed(4).padStart(14)).join('')}${scores.map((s) => s.ece.toFixed(4).padStart(15)).join('')}\n`);
}

process.stdout.write('\nsettings\n');
for (const run of runs) process.stdout.write(`  ${run.name.padEnd(18)} ${run.settings}\n`);
for (const message of python.messages) process.stdout.write(`${message}\n`);

const peers = runs.filter((run) => !run.ours);
if (peers.length > 0) {
  const scored = peers.map((run) => ({ run, all: prequentialScores(run.prob, data.y), late: prequentialScores(run.prob, data.y, n / 2, n) }));
  const best = scored.reduce((a, b) => (b.all.logLoss < a.all.logLoss ? b : a));
  const bestLate = scored.reduce((a, b) => (b.late.logLoss < a.late.logLoss ? b : a));
  const bestEce = scored.reduce((a, b) => (b.all.ece < a.all.ece ? b : a));
  process.stdout.write(`\nratio to the best peer in this run (< 1: ours is better): log-loss vs ${best.run.name}, last-50k log-loss vs ${bestLate.run.name}, ECE vs ${bestEce.run.name}\n`);
  for (const run of runs.filter((r) => r.ours)) {
    const all = prequentialScores(run.prob, data.y);
    const late = prequentialScores(run.prob, data.y, n / 2, n);
    process.stdout.write(`  ${run.name.padEnd(18)} ${(all.logLoss / best.all.logLoss).toFixed(3)}   ${(late.logLoss / bestLate.late.logLoss).toFixed(3)}   ${(all.ece / bestEce.all.ece).toFixed(3)}\n`);
  }
  const checked = peers.filter((run) => run.riverLogLoss !== undefined);
  if (checked.length > 0) {
    const gap = Math.max(...checked.map((run) => Math.abs(prequentialScores(run.prob, data.y).logLoss - run.riverLogLoss!)));
    process.stdout.write(`metric cross-check: max |our log-loss − River metrics.LogLoss| over the Python learners = ${gap.toExponential(1)}\n`);
  }
} else {
  process.stdout.write('\nno peer ran: ratios to River / Vowpal Wabbit skipped\n');
}
