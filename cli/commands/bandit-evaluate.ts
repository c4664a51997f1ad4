import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { usageOf } from '../command-help.js';
import { jsonObjectFlag } from '../json-object-flag.js';
import { numberFlag } from '../number-flag.js';
import { canonicalPolicyKind } from '../../bandit/kafka/canonical-policy-kind.js';
import { createBanditPolicy, type BanditPolicyConfig } from '../../bandit/kafka/create-bandit-policy.js';
import { evaluatePolicy, type LoggedDecision } from '../../src/bandit/off-policy-evaluation.js';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';

const POLICIES = ['thompson', 'lin-ucb', 'epsilon-greedy'] as const;

/** The logged decisions of a JSON-lines file: {"context": [...], "arm": a, "propensity": p, "reward": r} per line. */
function readDecisions(path: string): LoggedDecision[] {
  return readFileSync(path, 'utf8').split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const row = i + 1;
    let value: { context?: unknown; arm?: unknown; propensity?: unknown; reward?: unknown };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      throw new InputError('not valid JSON', { row });
    }
    if (!Array.isArray(value.context) || !value.context.every((v) => typeof v === 'number')) throw new InputError('context must be an array of numbers', { row, field: 'context' });
    for (const field of ['arm', 'propensity', 'reward'] as const) if (typeof value[field] !== 'number') throw new InputError(`${field} must be a number`, { row, field });
    return [{ context: Float64Array.from(value.context as number[]), arm: value.arm as number, propensity: value.propensity as number, reward: value.reward as number }];
  });
}

/** `--reward-range min,max` as a pair of finite numbers, or undefined when absent. */
function rewardRangeFlag(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',');
  if (parts.length !== 2) throw new ConfigError('--reward-range must be min,max', { field: '--reward-range', value: text });
  return [numberFlag('--reward-range', parts[0], 0, { min: -Infinity, integer: false }), numberFlag('--reward-range', parts[1], 0, { min: -Infinity, integer: false })];
}

/**
 * `vbstream bandit:evaluate`: IPS, SNIPS and doubly-robust estimates with normal-approximation
 * intervals, and clipped DR with an interval that holds its clipping bias, of what a candidate policy
 * (made with `--options`) would have earned on logged decisions, the candidate learning each logged
 * decision after it is scored (progressive evaluation); a warning when the effective sample size is small.
 */
export function banditEvaluateCommand(argv: string[], out: NodeJS.WritableStream = process.stdout): number {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { decisions: { type: 'string' }, policy: { type: 'string' }, options: { type: 'string' }, 'reward-model': { type: 'string' }, 'reward-range': { type: 'string' }, clip: { type: 'string' }, 'clipped-interval': { type: 'string', default: 'normal' }, level: { type: 'string', default: '0.95' }, json: { type: 'boolean', default: false } },
  });
  if (values.decisions === undefined || values.policy === undefined) throw new ConfigError(`--decisions and --policy are required\n${usageOf('bandit:evaluate')}`);
  const { kind, note } = canonicalPolicyKind(values.policy, '--policy');
  if (note !== undefined) process.stderr.write(`${note}\n`);
  if (!(POLICIES as readonly string[]).includes(kind)) throw new ConfigError(`--policy must be one of ${POLICIES.join(', ')}`, { field: 'policy', value: values.policy });
  const logs = readDecisions(values.decisions);
  if (logs.length === 0) throw new InputError(`${values.decisions} holds no decisions`);
  const options = jsonObjectFlag('--options', values.options);
  const dim = logs[0].context.length;
  const arms = typeof options.arms === 'number' ? options.arms : Math.max(...logs.map((l) => l.arm)) + 1;
  const seed = typeof options.seed === 'number' ? options.seed : 1;
  const settings = { ...options, arms, dim, seed };
  const candidate = createBanditPolicy({ ...settings, kind } as BanditPolicyConfig);
  const rewardModel = values['reward-model'] === undefined ? undefined : jsonObjectFlag('--reward-model', values['reward-model']) as { family: string; options?: unknown };
  const clippedInterval = values['clipped-interval'];
  if (clippedInterval !== 'normal' && clippedInterval !== 'empirical-bernstein') throw new ConfigError('--clipped-interval must be normal or empirical-bernstein', { field: '--clipped-interval', value: clippedInterval });
  const clip = values.clip === undefined ? undefined : numberFlag('--clip', values.clip, 1, { min: 1, integer: false });
  const estimates = evaluatePolicy(logs, candidate, { level: Number(values.level), rewardModel, learnFromLogs: true, rewardRange: rewardRangeFlag(values['reward-range']), clip, clippedInterval });
  if (values.json) {
    out.write(`${JSON.stringify({ policy: candidate.name, clippedInterval, ...estimates })}\n`);
    return 0;
  }
  const pct = `${Math.round(estimates.level * 1000) / 10}%`;
  out.write(`${candidate.name} on ${estimates.n} logged decisions (${arms} arms, ${dim} features), learning as it goes; ${pct} intervals\n`);
  for (const [name, e] of [['IPS', estimates.ips], ['SNIPS', estimates.snips], ['DR', estimates.dr]] as const) {
    out.write(`  ${name.padEnd(6)} ${e.value.toFixed(4).padStart(9)}  [${e.lower.toFixed(4)}, ${e.upper.toFixed(4)}]  SE ${e.standardError.toFixed(4)}  (normal)\n`);
  }
  const c = estimates.clippedDr;
  const [low, high] = estimates.rewardRange;
  out.write(`  ${'cDR'.padEnd(6)} ${c.value.toFixed(4).padStart(9)}  [${c.lower.toFixed(4)}, ${c.upper.toFixed(4)}]  SE ${c.standardError.toFixed(4)}  (clipped DR, ${clippedInterval}, weights capped at ${c.clip}, clipped mass ${c.clippedMass.toFixed(4)} charged at the reward range [${low}, ${high}])\n`);
  out.write(`  effective sample size of the importance weights: ${estimates.effectiveSampleSize.toFixed(1)}\n`);
  for (const warning of estimates.warnings) out.write(`  warning: ${warning}\n`);
  return 0;
}
