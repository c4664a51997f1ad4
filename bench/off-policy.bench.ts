import { offPolicyWorld, type LoggingKind } from './off-policy-world.js';
import { evaluatePolicy } from '../src/bandit/off-policy-evaluation.js';

/**
 * Coverage of the 95% off-policy intervals (issue 28, item 11): over seeded replications (default 200,
 * n = 2,000 decisions each, rewards in [0, 1]) of the friendly and the hard logging policy of
 * bench/off-policy-world.ts, the share of intervals holding the true value and their mean width, for
 * the normal IPS, SNIPS and DR intervals and for clipped DR (its interval holding the clipping bias),
 * each side of it normal or empirical-Bernstein (cDR (EB));
 * with the smallest propensity, the mean Kish effective sample size and how often it was reported small.
 * `node dist/bench/off-policy.bench.js [replications] [n]`.
 */
const REPLICATIONS = Number(process.argv[2] ?? 200);
const N = Number(process.argv[3] ?? 2000);
const ESTIMATORS = [['IPS', 'ips'], ['SNIPS', 'snips'], ['DR', 'dr'], ['clipped DR', 'clippedDr'], ['cDR (EB)', 'clippedDrBernstein']] as const;

process.stdout.write(`${REPLICATIONS} replications × ${N} logged decisions, 95% intervals\n`);
process.stdout.write('policy    estimator   coverage  mean width\n');
for (const kind of ['friendly', 'hard'] as LoggingKind[]) {
  const world = offPolicyWorld(kind);
  const covered = new Map<string, number>();
  const width = new Map<string, number>();
  let smallest = 1;
  let ess = 0;
  let warned = 0;
  let clip = 0;
  for (let seed = 1; seed <= REPLICATIONS; seed++) {
    const logs = world.logs(seed, N);
    smallest = logs.reduce((m, l) => Math.min(m, l.propensity), smallest);
    const estimates = { ...evaluatePolicy(logs, world.candidate, { rewardRange: [0, 1] }), clippedDrBernstein: evaluatePolicy(logs, world.candidate, { rewardRange: [0, 1], clippedInterval: 'empirical-bernstein' }).clippedDr };
    ess += estimates.effectiveSampleSize / REPLICATIONS;
    warned += estimates.warnings.length;
    clip += estimates.clippedDr.clip / REPLICATIONS;
    for (const [name, key] of ESTIMATORS) {
      const e = estimates[key];
      covered.set(name, (covered.get(name) ?? 0) + (e.lower <= world.trueValue && world.trueValue <= e.upper ? 1 : 0));
      width.set(name, (width.get(name) ?? 0) + (e.upper - e.lower) / REPLICATIONS);
    }
  }
  for (const [name] of ESTIMATORS) {
    process.stdout.write(`${kind.padEnd(9)} ${name.padEnd(11)} ${(covered.get(name)! / REPLICATIONS).toFixed(3).padStart(8)}  ${width.get(name)!.toFixed(3).padStart(10)}\n`);
  }
  process.stdout.write(`${kind.padEnd(9)} true value ${world.trueValue.toFixed(4)}, smallest propensity ${smallest.toExponential(2)}, mean effective sample size ${ess.toFixed(0)}, reported small in ${warned} of ${REPLICATIONS}, mean cap ${clip.toFixed(1)}\n`);
}
