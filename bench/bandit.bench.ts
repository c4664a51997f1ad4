import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EpsilonGreedyPolicy, LinUcbPolicy, simulateBandit, ThompsonPolicy, type BanditPolicy, type SimulatedBanditOptions } from '../src/bandit/index.js';
import { formatCount } from './measure.js';
import { storedBanditRun } from './stored-bandit-run.js';

/**
 * The simulated bandits of issue 17: K = 5 arms, d = 10 features (a bias and 9 N(0, 1)),
 * θ_a ~ N(0, I), T = 20,000 steps, logistic (reward 1 with probability σ(θ_aᵀx)) and Gaussian
 * (θ_aᵀx + N(0, 1)) rewards, seeds 1–5. Pseudo-regret mean ± sd over the seeds and decisions +
 * updates per second for Thompson sampling with the vbstream/bandit defaults of each reward kind —
 * the propensity included: by quadrature for the binary default (vb-logit-online arms, Gaussian
 * posteriors), by 100 Monte Carlo score draws for the real one (vb-linear arms, Student-t scores);
 * and with 1 draw, to show what the Monte Carlo propensity costs — LinUCB (α = 1) and ε-greedy
 * (ε = 0.1); MABWiser LinTS and LinUCB (α = 1, λ = 1) run in bench/python/bandit.py on the same
 * contexts and rewards when python3 and mabwiser are there. Thompson and LinUCB are then run again on
 * seeds 6–10, a check that the comparison is not one of the first five seeds.
 * `node dist/bench/bandit.bench.js [steps]`.
 */
const K = 5;
const D = 10;
const T = Number(process.argv[2] ?? 20_000);
const SEEDS = [1, 2, 3, 4, 5];
const CHECK_SEEDS = [6, 7, 8, 9, 10];
const KINDS = ['logistic', 'gaussian'] as const;
type Kind = (typeof KINDS)[number];

interface Result { readonly regret: number[]; readonly perSecond: number[] }
const results = new Map<string, Result>();
const record = (kind: Kind, name: string, regret: number, perSecond: number): void => {
  const key = `${kind}\t${name}`;
  const entry = results.get(key) ?? { regret: [], perSecond: [] };
  entry.regret.push(regret);
  entry.perSecond.push(perSecond);
  results.set(key, entry);
};

const policies: [string, (kind: Kind, seed: number) => BanditPolicy][] = [
  ['thompson (defaults)', (kind, seed) => new ThompsonPolicy({ arms: K, dim: D, seed, rewards: kind === 'logistic' ? 'binary' : 'real' })],
  ['thompson (1 prop. draw)', (kind, seed) => new ThompsonPolicy({ arms: K, dim: D, seed, rewards: kind === 'logistic' ? 'binary' : 'real', propensityDraws: 1 })],
  ['LinUCB (alpha 1)', (_, seed) => new LinUcbPolicy({ arms: K, dim: D, seed })],
  ['epsilon-greedy (0.1)', (kind, seed) => new EpsilonGreedyPolicy({ arms: K, dim: D, seed, rewards: kind === 'logistic' ? 'binary' : 'real' })],
];

for (const kind of KINDS) {
  for (const seed of SEEDS) {
    const world: SimulatedBanditOptions = { arms: K, dim: D, seed, rewards: kind };
    for (const [name, make] of policies) {
      const start = performance.now();
      const curve = simulateBandit(make(kind, seed), world, T);
      record(kind, name, curve.cumulative[T - 1], (T / (performance.now() - start)) * 1000);
    }
  }
}

/** Every run's contexts and all arms' rewards (as the environment draws them), for the Python peers. */
function pythonRuns(): string[] {
  const folder = mkdtempSync(join(tmpdir(), 'vbstream-bandit-'));
  try {
    const runs = KINDS.flatMap((kind) => SEEDS.map((seed) => {
      const { x, rewards, expected } = storedBanditRun({ arms: K, dim: D, seed, rewards: kind }, T);
      const name = `${kind}-${seed}`;
      writeFileSync(join(folder, `${name}.x.f64`), new Uint8Array(x.buffer));
      writeFileSync(join(folder, `${name}.rewards.f64`), new Uint8Array(rewards.buffer));
      return { name, kind, seed, expected };
    }));
    writeFileSync(join(folder, 'meta.json'), JSON.stringify({ runs: runs.map(({ name, seed }) => ({ name, seed, arms: K, dim: D, steps: T })) }));
    const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'python', 'bandit.py');
    const result = spawnSync('python3', [script, folder], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 3_600_000 });
    if (result.error !== undefined) return [`python part skipped: cannot run python3 (${result.error.message})`];
    const messages: string[] = [];
    for (const line of result.stdout.split('\n').filter((l) => l.trim().startsWith('{'))) {
      const report = JSON.parse(line) as { skip?: string; learner?: string; run?: string; file?: string; decisionsPerSecond?: number };
      if (report.skip !== undefined) { messages.push(`python part: ${report.skip}`); continue; }
      const run = runs.find((r) => r.name === report.run)!;
      const bytes = readFileSync(report.file!);
      const arms = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      let regret = 0;
      for (let t = 0; t < T; t++) {
        const row = run.expected.subarray(t * K, (t + 1) * K);
        regret += Math.max(...row) - row[arms[t]];
      }
      record(run.kind, report.learner!, regret, report.decisionsPerSecond!);
    }
    if (result.status !== 0) messages.push(`python part stopped early (exit ${result.status ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return messages;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const check = new Map<string, number[]>();
for (const kind of KINDS) {
  for (const seed of CHECK_SEEDS) {
    for (const [name, make] of policies.filter(([n]) => n === 'thompson (defaults)' || n === 'LinUCB (alpha 1)')) {
      const regrets = check.get(`${kind}\t${name}`) ?? [];
      regrets.push(simulateBandit(make(kind, seed), { arms: K, dim: D, seed, rewards: kind }, T).cumulative[T - 1]);
      check.set(`${kind}\t${name}`, regrets);
    }
  }
}

const messages = pythonRuns();
const stats = (values: number[]): { mean: number; sd: number } => {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return { mean, sd: Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, values.length - 1)) };
};
process.stdout.write(`K = ${K} arms, d = ${D}, T = ${formatCount(T)} steps, seeds ${SEEDS.join(', ')}: pseudo-regret mean ± sd (sd/mean), decisions + updates per second (median over seeds)\n`);
for (const kind of KINDS) {
  process.stdout.write(`\n${kind} rewards\n`);
  for (const [key, r] of results) {
    if (!key.startsWith(`${kind}\t`)) continue;
    const { mean, sd } = stats(r.regret);
    const speed = [...r.perSecond].sort((a, b) => a - b)[Math.floor(r.perSecond.length / 2)];
    process.stdout.write(`  ${key.split('\t')[1].padEnd(24)} regret ${mean.toFixed(1).padStart(8)} ± ${sd.toFixed(1).padStart(6)} (${((100 * sd) / mean).toFixed(0).padStart(3)}%)   ${formatCount(speed).padStart(9)} /s   [${r.regret.map((v) => v.toFixed(0)).join(' ')}]\n`);
  }
  const get = (name: string): Result | undefined => results.get(`${kind}\t${name}`);
  const thompson = get('thompson (defaults)')!;
  for (const peer of ['LinUCB (alpha 1)', 'MABWiser LinTS', 'MABWiser LinUCB']) {
    const other = get(peer);
    if (other === undefined) continue;
    const speed = (r: Result): number => [...r.perSecond].sort((a, b) => a - b)[Math.floor(r.perSecond.length / 2)];
    process.stdout.write(`  thompson vs ${peer}: regret ratio ${(stats(thompson.regret).mean / stats(other.regret).mean).toFixed(2)}, speed ratio ${(speed(thompson) / speed(other)).toFixed(2)}×\n`);
  }
}
process.stdout.write(`\ncheck on seeds ${CHECK_SEEDS.join(', ')}: pseudo-regret mean ± sd (sd/mean)\n`);
for (const kind of KINDS) {
  const line = (name: string): { mean: number; text: string } => {
    const regrets = check.get(`${kind}\t${name}`)!;
    const { mean, sd } = stats(regrets);
    return { mean, text: `${name} ${mean.toFixed(1)} ± ${sd.toFixed(1)} (${((100 * sd) / mean).toFixed(0)}%) [${regrets.map((v) => v.toFixed(0)).join(' ')}]` };
  };
  const thompson = line('thompson (defaults)');
  const linUcb = line('LinUCB (alpha 1)');
  process.stdout.write(`  ${kind.padEnd(9)} ${thompson.text}; ${linUcb.text}; ratio ${(thompson.mean / linUcb.mean).toFixed(2)}\n`);
}
for (const message of messages) process.stdout.write(`${message}\n`);
