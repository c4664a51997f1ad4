import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { armModelSpec } from '../../examples/thompson-bandit/arm-model.js';
import { BanditBackend } from '../../examples/thompson-bandit/bandit-backend.js';
import { DEFAULT_BANDIT_SETTINGS, runBanditExperiment } from '../../examples/thompson-bandit/bandit-experiment.js';
import { createBanditServer } from '../../examples/thompson-bandit/bandit-server.js';
import { writeBanditOutputs } from '../../examples/thompson-bandit/write-bandit-outputs.js';
import { LinUcbPolicy, ThompsonPolicy } from '../../src/bandit/index.js';
import { listenLocal, postJson } from './http-client.js';

const final = (curve: { cumulative: Float64Array }): number => curve.cumulative[curve.cumulative.length - 1];

describe('thompson-bandit example', () => {
  const results = runBanditExperiment(DEFAULT_BANDIT_SETTINGS);
  let dir = '';
  afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }); });

  it('Thompson sampling has clearly less regret than ε-greedy on the default seed and settings', () => {
    const [thompson, epsilonGreedy, linUcb] = results.stationary;
    expect(thompson.name).toBe('thompson');
    expect(epsilonGreedy.name).toMatch(/^epsilon-greedy/);
    expect(linUcb.name).toMatch(/^LinUCB/);
    expect(final(thompson)).toBeLessThan(0.85 * final(epsilonGreedy));
    // regret grows sublinearly: the second half costs less than the first
    const half = thompson.cumulative[DEFAULT_BANDIT_SETTINGS.steps / 2 - 1];
    expect(final(thompson) - half).toBeLessThan(half);
  });

  it('with drift, forgetting lowers Thompson regret on the default seed', () => {
    const [off, on] = results.drift;
    expect(on.name).toContain('forget');
    expect(final(on)).toBeLessThan(final(off));
  });

  it('the posterior predictive is calibrated within 0.15 in the well-filled bins', () => {
    const filled = results.calibration.filter((b) => b.count >= 100);
    expect(filled.length).toBeGreaterThanOrEqual(3);
    for (const bin of filled) expect(Math.abs(bin.observed - bin.predicted)).toBeLessThan(0.15);
    expect(results.calibration.reduce((s, b) => s + b.count, 0)).toBe(DEFAULT_BANDIT_SETTINGS.steps);
  });

  it('writes regret and calibration SVGs with the expected series and CSVs with the expected columns', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vbstream-bandit-'));
    await writeBanditOutputs(dir, results);
    const svg = await readFile(join(dir, 'regret.svg'), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    for (const name of ['thompson', 'epsilon-greedy (0.1)', 'LinUCB (alpha 1)']) expect(svg).toContain(`data-series="${name}"`);
    const driftSvg = await readFile(join(dir, 'regret-drift.svg'), 'utf8');
    expect(driftSvg).toContain('data-series="thompson (forget 0.995)"');
    expect(results.driftSteps).toEqual([500, 1000, 1500]);
    const driftMarks = /<g data-series="reward weights drift">(.*?)<\/g>/.exec(driftSvg)![1];
    expect(driftMarks.match(/<line /g)).toHaveLength(3);
    const calibrationSvg = await readFile(join(dir, 'calibration.svg'), 'utf8');
    expect(calibrationSvg).toContain('data-series="perfect calibration"');
    // Every non-empty bin is labelled with its record count; the thin ones are drawn apart, as open circles.
    for (const bin of results.calibration.filter((b) => b.count > 0)) expect(calibrationSvg).toContain(`>n=${bin.count}</text>`);
    const thin = results.calibration.filter((b) => b.count > 0 && b.count < 30);
    const sparseGroup = /<g data-series="bins of &lt; 30 records"[^>]*>(.*?)<\/g>/.exec(calibrationSvg)![1];
    expect(sparseGroup.match(/fill="white"/g) ?? []).toHaveLength(thin.length);
    const regret = (await readFile(join(dir, 'regret.csv'), 'utf8')).trim().split('\n');
    expect(regret[0]).toBe('step,thompson,epsilon_greedy_0.1,LinUCB_alpha_1');
    expect(regret).toHaveLength(DEFAULT_BANDIT_SETTINGS.steps + 1);
    expect(Number(regret[regret.length - 1].split(',')[1])).toBeCloseTo(final(results.stationary[0]), 3);
    const drift = (await readFile(join(dir, 'regret-drift.csv'), 'utf8')).split('\n')[0];
    expect(drift).toBe('step,thompson,thompson_forget_0.995,epsilon_greedy_0.1,LinUCB_alpha_1');
    const calibration = (await readFile(join(dir, 'calibration.csv'), 'utf8')).trim().split('\n');
    expect(calibration[0]).toBe('bin_lower,bin_upper,count,mean_predicted,observed_frequency');
    expect(calibration).toHaveLength(11);
  });

  it('the Monte Carlo propensity is near 1 for a dominant arm and the propensities of all arms sum to about 1', () => {
    const x = Float64Array.of(1, 0.5);
    const policy = new ThompsonPolicy({ arms: 3, dim: 2, model: armModelSpec('vb-logit-online'), seed: 3, propensityDraws: 2000 });
    for (let i = 0; i < 200; i++) policy.learn({ context: x, arm: 0 }, 1);
    for (let i = 0; i < 200; i++) policy.learn({ context: x, arm: 1 }, 0);
    expect(policy.actionProbabilities(x)[0]).toBeGreaterThan(0.95);
    const fresh = new ThompsonPolicy({ arms: 3, dim: 2, model: armModelSpec('vb-logit-online'), seed: 3, propensityDraws: 2000 });
    const sum = fresh.actionProbabilities(x).reduce((s, p) => s + p, 0);
    expect(sum).toBeGreaterThan(0.95);
    expect(sum).toBeLessThan(1.05);
  });

  it('refuses forgetting for a family without forget()', () => {
    expect(() => new ThompsonPolicy({ arms: 2, dim: 2, model: armModelSpec('vi-per'), seed: 1, forget: 0.99 })).toThrow(/forget/);
  });

  it('each selectable per-arm model learns through the backend', () => {
    for (const kind of ['pg-logit-sda', 'pg-logit-svi', 'vi-per'] as const) {
      const policy = new ThompsonPolicy({ arms: 2, dim: 2, model: armModelSpec(kind), seed: 1, propensityDraws: 10 });
      const backend = new BanditBackend(policy);
      for (let i = 0; i < 5; i++) {
        const decision = backend.decide({ context: Float64Array.of(1, i / 5) });
        backend.reward({ decisionId: decision.decisionId, reward: decision.arm === 0 ? 1 : 0 });
      }
      expect(policy.models[0].recordsSeen + policy.models[1].recordsSeen).toBe(5);
    }
  });

  it('serves /decide and /reward over HTTP, refuses bad requests with 400 and stays up', async () => {
    const policy = new ThompsonPolicy({ arms: 3, dim: 3, model: armModelSpec('vb-logit-online'), seed: 1, propensityDraws: 100 });
    const server = createBanditServer(new BanditBackend(policy), 1000);
    const base = await listenLocal(server);
    try {
      const decision = await postJson(`${base}/decide`, { context: [1, 0.2, -0.4] });
      expect(decision.status).toBe(200);
      expect(decision.json.scores).toHaveLength(3);
      expect(decision.json.arm).toBe(decision.json.scores.indexOf(Math.max(...decision.json.scores)));
      expect(decision.json.propensity).toBeGreaterThan(0);
      expect(decision.json.propensity).toBeLessThanOrEqual(1);
      expect(await postJson(`${base}/reward`, { decisionId: decision.json.decisionId, reward: 1 })).toEqual({ status: 200, json: { learned: true, arm: decision.json.arm } });
      expect(policy.models[decision.json.arm].recordsSeen).toBe(1);
      const bad: [unknown, RegExp][] = [
        [{ context: [1, 2] }, /2 features, the model has 3/],
        [{ context: [1, 'x', 3] }, /not a finite number.*column 2/],
        [{ context: [1, null, 3] }, /not a finite number/],
        ['{"context": [1, 2', /not valid JSON/],
        [{ context: new Array(500).fill(1) }, /exceeds the limit of 1000/],
      ];
      for (const [body, reason] of bad) {
        const reply = await postJson(`${base}/decide`, body);
        expect(reply.status).toBe(400);
        expect(reply.json.error).toMatch(reason);
      }
      expect((await postJson(`${base}/reward`, { decisionId: decision.json.decisionId, reward: 1 })).json.error).toMatch(/unknown or already rewarded/);
      expect((await postJson(`${base}/reward`, { decisionId: 'd1', reward: 0.5 })).status).toBe(400);
      expect((await postJson(`${base}/decide`, { context: [1, 0, 0] })).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('LinUCB trades its estimate against the shrinking confidence bonus (Li et al. 2010, Alg. 1)', () => {
    const policy = new LinUcbPolicy({ arms: 2, dim: 1, alpha: 1 });
    const x = Float64Array.of(1);
    const learn = (reward: number): void => policy.learn({ context: x, arm: 0 }, reward);
    learn(1);
    learn(1);
    // arm 0: θ = 2/3, bonus √(1/3) ≈ 0.577 → 1.244; arm 1: 0 + 1 = 1
    expect(policy.decide(x).arm).toBe(0);
    learn(0);
    learn(0);
    // arm 0: θ = 2/5, bonus √(1/5) ≈ 0.447 → 0.847 < 1
    expect(policy.decide(x).arm).toBe(1);
  });
});
