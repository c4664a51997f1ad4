import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { offPolicyWorld } from '../../bench/off-policy-world.js';
import { SimulatedBandit } from '../../src/bandit/simulated-bandit.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { Rng } from '../../src/rng/rng.js';
import { runVbstream } from '../helpers/run-vbstream.js';

const dir = mkdtempSync(join(tmpdir(), 'vbstream-bandit-evaluate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 1500 decisions of a uniform logging policy (propensity 1/3) on a seeded logistic bandit, as JSON lines. */
const decisions = join(dir, 'decisions.jsonl');
{
  const world = new SimulatedBandit({ arms: 3, dim: 3, seed: 4 });
  const rng = Rng.fromSeed(5);
  const lines = Array.from({ length: 1500 }, () => {
    const context = world.context();
    const arm = Math.floor(rng.nextDouble() * 3);
    return JSON.stringify({ context: Array.from(context), arm, propensity: 1 / 3, reward: world.reward(context, arm) });
  });
  writeFileSync(decisions, `${lines.join('\n')}\n`);
}

/** 2000 decisions of the hard logging policy of the off-policy coverage test (propensities down to the 1e-4s). */
const hardDecisions = join(dir, 'hard.jsonl');
writeFileSync(hardDecisions, offPolicyWorld('hard').logs(1, 2000).map((l) => `${JSON.stringify({ ...l, context: Array.from(l.context) })}\n`).join(''));

describe('vbstream bandit:evaluate', () => {
  it('prints IPS, SNIPS and DR with intervals; a learning policy beats the uniform logger; --json for tools', () => {
    const text = runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'lin-ucb');
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^LinUCB \(alpha 1\) on 1500 logged decisions \(3 arms, 3 features\), learning as it goes; 95% intervals\n/);
    for (const name of ['IPS', 'SNIPS', 'DR']) expect(text.stdout).toMatch(new RegExp(`\\n  ${name} +-?\\d\\.\\d{4}  \\[-?\\d\\.\\d{4}, -?\\d\\.\\d{4}\\]  SE \\d\\.\\d{4}  \\(normal\\)\\n`));
    expect(text.stdout).toMatch(/\n  cDR +-?\d\.\d{4}  \[-?\d\.\d{4}, -?\d\.\d{4}\]  SE \d\.\d{4}  \(clipped DR, normal, weights capped at \d+(\.\d+)?, clipped mass \d\.\d{4} charged at the reward range \[0, 1\]\)\n/);
    expect(text.stdout).not.toMatch(/warning/);
    const json = JSON.parse(runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'thompson', '--options', '{"seed": 3, "propensityDraws": 20}', '--level', '0.9', '--json').stdout) as { policy: string; level: number; n: number; dr: { value: number; lower: number; upper: number } };
    expect(json).toMatchObject({ policy: 'thompson', level: 0.9, n: 1500 });
    expect(json.dr.lower).toBeLessThan(json.dr.value);
    expect(json.dr.upper).toBeGreaterThan(json.dr.value);
    const logged = JSON.parse(runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'epsilon-greedy', '--options', '{"epsilon": 1}', '--json').stdout) as { ips: { value: number } };
    // ε = 1 is the uniform logging policy itself: every weight is 1, IPS is the logged mean reward
    expect(json.dr.value).toBeGreaterThan(logged.ips.value);
  });

  it('on a logging policy with tiny propensities: warns of the small effective sample size, and takes the reward range and the cap', () => {
    const text = runVbstream('bandit:evaluate', '--decisions', hardDecisions, '--policy', 'epsilon-greedy', '--reward-range', '0,1');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\n  warning: the importance weights are worth \d+\.\d of 2000 decisions \(effective sample size below 10%\): the IPS, SNIPS and DR normal intervals undercover, read the clipped DR interval\n$/);
    const json = JSON.parse(runVbstream('bandit:evaluate', '--decisions', hardDecisions, '--policy', 'epsilon-greedy', '--reward-range=-1,2', '--clip', '8', '--clipped-interval', 'empirical-bernstein', '--json').stdout) as { clippedInterval: string; rewardRange: number[]; warnings: string[]; clippedDr: { clip: number; lower: number; upper: number } };
    expect(json.rewardRange).toEqual([-1, 2]);
    expect(json.clippedDr.clip).toBe(8);
    expect(json.clippedInterval).toBe('empirical-bernstein');
    expect(json.warnings).toHaveLength(1);
    expect(runVbstream('bandit:evaluate', '--decisions', hardDecisions, '--policy', 'linucb', '--reward-range', '0').stderr).toMatch(/--reward-range must be min,max/);
    expect(runVbstream('bandit:evaluate', '--decisions', hardDecisions, '--policy', 'linucb', '--clipped-interval', 'bootstrap').stderr).toMatch(/--clipped-interval must be normal or empirical-bernstein/);
    expect(runVbstream('bandit:evaluate', '--decisions', hardDecisions, '--policy', 'linucb', '--clip', '0.5').stderr).toMatch(/--clip must be a finite number ≥ 1/);
  });

  it('refuses what it cannot evaluate, naming the problem', () => {
    expect(runVbstream('bandit:evaluate', '--decisions', decisions).stderr).toMatch(/--decisions and --policy are required/);
    expect(runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'ucb1').stderr).toMatch(/--policy must be one of thompson, lin-ucb, epsilon-greedy/);
    expect(runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'lin-ucb', '--options', '{alpha').stderr).toMatch(/--options is not valid JSON/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"context": [1, 0, 0], "arm": 0, "propensity": 0.5, "reward": 1}\n{"context": [1, 0, 0], "arm": 0, "propensity": 0, "reward": 1}\n');
    const result = runVbstream('bandit:evaluate', '--decisions', bad, '--policy', 'lin-ucb');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/propensity must be in \(0, 1\] \(row 2/);
  });

  it('reads decisions logged as JSON straight from a policy ({...decision, reward}, as the README loop keeps them): context and scores are arrays', () => {
    const world = new SimulatedBandit({ arms: 3, dim: 3, seed: 8 });
    const policy = new ThompsonPolicy({ arms: 3, dim: 3, seed: 8 });
    const lines = Array.from({ length: 300 }, () => {
      const decision = policy.decide(world.context());
      const reward = world.reward(decision.context, decision.arm);
      policy.learn(decision, reward);
      return JSON.stringify({ ...decision, reward });
    });
    const logged = JSON.parse(lines[0]) as { context: unknown; scores: unknown };
    expect(Array.isArray(logged.context) && Array.isArray(logged.scores)).toBe(true);
    const file = join(dir, 'logged.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = runVbstream('bandit:evaluate', '--decisions', file, '--policy', 'epsilon-greedy', '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ n: 300 });
  });

  it('spells LinUCB lin-ucb, as bandit:learn\'s policy kind; linucb is taken as an alias with a note', () => {
    const result = runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'linucb', '--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^note: --policy linucb is read as lin-ucb/);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(runVbstream('bandit:evaluate', '--decisions', decisions, '--policy', 'lin-ucb', '--json').stdout));
  });
});
