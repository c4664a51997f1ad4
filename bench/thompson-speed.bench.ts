import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinUcbPolicy, ThompsonPolicy, type BanditPolicy } from '../src/bandit/index.js';
import { formatCount } from './measure.js';
import { storedBanditRun, type StoredBanditRun } from './stored-bandit-run.js';

/**
 * Issue 30's Thompson target: decisions + updates per CPU-second of vbstream's ThompsonPolicy with
 * the defaults of each reward kind (propensity included: quadrature for binary, 100 Monte Carlo score
 * draws for real) and LinUCB (α = 1) beside it, against Vowpal Wabbit's contextual bandit with
 * action-dependent features (`--cb_explore_adf -q sa`: a shared context line and K action lines,
 * one linear model per arm; its default epsilon-greedy exploration and `--squarecb`), run by
 * bench/python/thompson_vw.py on the same contexts and rewards when python3 and vowpalwabbit are there.
 * K = 10 arms, d = 20 features (a bias and 19 N(0, 1)), θ_a ~ N(0, I), logistic (binary) and
 * Gaussian (real) rewards of SimulatedBandit, T steps (default 20,000), seeds 1–3. Both sides replay
 * the same stored contexts and all-arm rewards; only decide + learn is timed (our process.cpuUsage,
 * VW's time.process_time less the Python work a VW user does in the loop: see the script). Each of
 * our policies plays one untimed warm-up run (seed 99) first. Pseudo-regret is printed beside the
 * speed, so speed is not bought with quality.
 * `node dist/bench/thompson-speed.bench.js [steps]`.
 */
const K = 10;
const D = 20;
const T = Number(process.argv[2] ?? 20_000);
const SEEDS = [1, 2, 3];
const WARM_UP_SEED = 99;
const KINDS = ['logistic', 'gaussian'] as const;
type Kind = (typeof KINDS)[number];

/** One stored run of a kind and seed (see {@link storedBanditRun}). */
interface Run extends StoredBanditRun { readonly name: string; readonly kind: Kind; readonly seed: number }

const storedRun = (kind: Kind, seed: number): Run => ({ name: `${kind}-${seed}`, kind, seed, ...storedBanditRun({ arms: K, dim: D, seed, rewards: kind }, T) });

function regretOf(run: Run, arms: ArrayLike<number>): number {
  let regret = 0;
  for (let t = 0; t < T; t++) {
    const row = run.expected.subarray(t * K, (t + 1) * K);
    regret += Math.max(...row) - row[arms[t]];
  }
  return regret;
}

/** Plays `policy` over the stored run; returns the arms played and the CPU seconds of decide + learn. */
function play(policy: BanditPolicy, run: Run): { arms: Int32Array; cpuSeconds: number } {
  const arms = new Int32Array(T);
  const start = process.cpuUsage();
  for (let t = 0; t < T; t++) {
    const decision = policy.decide(run.x.subarray(t * D, (t + 1) * D));
    arms[t] = decision.arm;
    policy.learn(decision, run.rewards[t * K + decision.arm]);
  }
  const used = process.cpuUsage(start);
  return { arms, cpuSeconds: (used.user + used.system) / 1e6 };
}

const policies: [string, (kind: Kind, seed: number) => BanditPolicy][] = [
  ['vbstream thompson (defaults)', (kind, seed) => new ThompsonPolicy({ arms: K, dim: D, seed, rewards: kind === 'logistic' ? 'binary' : 'real' })],
  ['vbstream LinUCB (alpha 1)', (_, seed) => new LinUcbPolicy({ arms: K, dim: D, seed })],
];

interface Result { readonly regret: number[]; readonly cpuSeconds: number[] }
const results = new Map<string, Result>();
const record = (kind: Kind, name: string, regret: number, cpuSeconds: number): void => {
  const key = `${kind}\t${name}`;
  const entry = results.get(key) ?? { regret: [], cpuSeconds: [] };
  entry.regret.push(regret);
  entry.cpuSeconds.push(cpuSeconds);
  results.set(key, entry);
};

const load = loadavg();
const runs = KINDS.flatMap((kind) => SEEDS.map((seed) => storedRun(kind, seed)));
for (const kind of KINDS) {
  const warmUp = storedRun(kind, WARM_UP_SEED);
  for (const [, make] of policies) play(make(kind, WARM_UP_SEED), warmUp);
  for (const run of runs.filter((r) => r.kind === kind)) {
    for (const [name, make] of policies) {
      const { arms, cpuSeconds } = play(make(kind, run.seed), run);
      record(kind, name, regretOf(run, arms), cpuSeconds);
    }
  }
}

/** Runs bench/python/thompson_vw.py on the stored runs; returns its skip or failure messages. */
function vowpalWabbit(): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'vbstream-thompson-vw-'));
  try {
    for (const run of runs) {
      writeFileSync(join(folder, `${run.name}.x.f64`), new Uint8Array(run.x.buffer));
      writeFileSync(join(folder, `${run.name}.rewards.f64`), new Uint8Array(run.rewards.buffer));
    }
    writeFileSync(join(folder, 'meta.json'), JSON.stringify({ runs: runs.map(({ name, seed }) => ({ name, seed, arms: K, dim: D, steps: T })) }));
    const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'python', 'thompson_vw.py');
    const result = spawnSync('python3', [script, folder], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 3_600_000 });
    if (result.error !== undefined) return [`Vowpal Wabbit part skipped: cannot run python3 (${result.error.message})`];
    const messages: string[] = [];
    for (const line of result.stdout.split('\n').filter((l) => l.trim().startsWith('{'))) {
      const report = JSON.parse(line) as { skip?: string; learner?: string; run?: string; file?: string; vwCpuSeconds?: number; cpuSeconds?: number };
      if (report.skip !== undefined) { messages.push(`Vowpal Wabbit part: ${report.skip}`); continue; }
      const run = runs.find((r) => r.name === report.run)!;
      const bytes = readFileSync(report.file!);
      const arms = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      const regret = regretOf(run, arms);
      record(run.kind, report.learner!, regret, report.vwCpuSeconds!);
      record(run.kind, `${report.learner!} (whole Python loop)`, regret, report.cpuSeconds!);
    }
    if (result.status !== 0) messages.push(`Vowpal Wabbit part stopped early (exit ${result.status ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return messages;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const messages = vowpalWabbit();
const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;
/** Decisions + updates per CPU-second over all seeds of a learner (total steps over total CPU time). */
const rate = (r: Result): number => (T * r.cpuSeconds.length) / r.cpuSeconds.reduce((s, v) => s + v, 0);
process.stdout.write(`K = ${K} arms, d = ${D}, T = ${formatCount(T)} steps, seeds ${SEEDS.join(', ')}; load average ${load.map((v) => v.toFixed(2)).join(' ')} at the start\n`);
process.stdout.write('decisions + updates per CPU-second (all seeds), pseudo-regret mean [per seed]\n');
for (const kind of KINDS) {
  process.stdout.write(`\n${kind} rewards (${kind === 'logistic' ? 'binary' : 'real'})\n`);
  for (const [key, r] of results) {
    if (!key.startsWith(`${kind}\t`)) continue;
    process.stdout.write(`  ${key.split('\t')[1].padEnd(54)} ${formatCount(rate(r)).padStart(9)} /CPU-s   regret ${mean(r.regret).toFixed(1).padStart(8)}   [${r.regret.map((v) => v.toFixed(0)).join(' ')}]\n`);
  }
  const thompson = results.get(`${kind}\tvbstream thompson (defaults)`)!;
  for (const [key, peer] of results) {
    if (!key.startsWith(`${kind}\tVW`) || key.endsWith('(whole Python loop)')) continue;
    process.stdout.write(`  thompson vs ${key.split('\t')[1]}: speed ${(rate(thompson) / rate(peer)).toFixed(2)}×, regret ratio ${(mean(thompson.regret) / mean(peer.regret)).toFixed(2)}\n`);
  }
}
for (const message of messages) process.stdout.write(`${message}\n`);
