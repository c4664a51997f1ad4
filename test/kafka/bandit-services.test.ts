import { describe, expect, it } from 'vitest';
import type { LiveFrame } from '../../monitoring/live-frame.js';
import type { BanditLearnerEvent } from '../../bandit/kafka/bandit-learner-event.js';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { KafkaSnapshotStore } from '../../connectors/kafka/kafka-snapshot-store.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { readRecords, ServiceProcess, suiteBroker, unique, waitFor } from './helpers.js';

const ARMS = 3;
const N = 40;
const AFTER = 30;

type LearnerLine = BanditLearnerEvent | { readonly type: 'metrics'; readonly url: string; readonly live: string };
type DeciderLine = { readonly type: 'listening'; readonly url: string; readonly instance: string } | { readonly type: 'policy'; readonly rewards: number; readonly version: number };

interface Decided {
  readonly decisionId: string;
  readonly arm: number;
  readonly propensity: number;
  readonly policyRewards: number;
  readonly policyVersion: number;
  readonly instance: string;
}

async function post<T>(url: string, body: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: response.status, json: await response.json() as T };
}

/**
 * The bandit backend as its users run it: `vbstream bandit:learn` and two `vbstream bandit:decide`
 * processes (dist/cli/vbstream.js: run `npm run build` first), driven over HTTP only.
 */
describe('vbstream bandit:learn and bandit:decide over HTTP (real broker)', () => {
  const { port } = suiteBroker();

  it('decides on either decider, takes rewards on either, learns each reward once, hot-swaps the deciders and serves the bandit metrics', async () => {
    const prefix = unique('kbandit-http');
    const topics = ['--decisions', `${prefix}.decisions`, '--rewards', `${prefix}.rewards`];
    const learner = new ServiceProcess<LearnerLine>([...topics, '--model', 'shop', '--state-topic', `${prefix}.state`, '--policy-topic', `${prefix}.policy`,
      '--policy', JSON.stringify({ kind: 'thompson', arms: ARMS, dim: 2, seed: 3 }), '--reward-window-ms', '600000', '--snapshot-every', '10', '--metrics-port', '0'], 'bandit:learn');
    await waitFor(() => learner.events.some((e) => e.type === 'restored'), () => `the learner to start (stderr: ${learner.stderr})`);
    const deciders = [0, 1].map(() => new ServiceProcess<DeciderLine>([...topics, '--policy-topic', `${prefix}.policy`, '--model', 'shop', '--port', '0'], 'bandit:decide'));
    await waitFor(() => deciders.every((d) => d.events.some((e) => e.type === 'listening')), () => `the deciders to listen (stderr: ${deciders.map((d) => d.stderr).join(' | ')})`);
    const urls = deciders.map((d) => (d.events.find((e) => e.type === 'listening') as { url: string }).url);
    await waitFor(async () => (await Promise.all(urls.map(async (url) => (await fetch(`${url}health`)).status))).every((s) => s === 200), 'both deciders to load the first policy');

    const decided: Decided[] = [];
    for (let i = 0; i < N; i++) {
      const { status, json } = await post<Decided>(`${urls[i % 2]}decide`, { context: [1, Math.sin(i)] });
      expect(status).toBe(200);
      expect(json.policyRewards).toBe(0);
      decided.push(json);
    }
    expect(new Set(decided.map((d) => d.decisionId)).size).toBe(N);
    expect(new Set(decided.map((d) => d.instance)).size).toBe(2);
    const regretOf = async (url: string): Promise<number> => sampleValue(parsePrometheusText(await (await fetch(`${url}metrics`)).text()), 'vbstream_bandit_estimated_regret_total');
    expect(await Promise.all(urls.map(regretOf)), 'under the prior every arm has the same expected reward: no choice is regretted').toEqual([0, 0]);
    const rewardOf = (d: Decided): number => (d.arm === 2 ? 0 : 1);
    for (const [i, d] of decided.entries()) {
      const { status } = await post(`${urls[(i + 1) % 2]}reward`, { decisionId: d.decisionId, reward: rewardOf(d) }); // the other decider: any takes any reward
      expect(status).toBe(202);
    }
    expect((await post(`${urls[0]}reward`, { decisionId: decided[0].decisionId, reward: 1 })).status, 'a duplicate is accepted here; the learner dead-letters it').toBe(202);

    await waitFor(() => learner.events.some((e) => e.type === 'published' && e.learned === N && e.pending === 0), () => `the learner to learn ${N} rewards (stderr: ${learner.stderr})`);
    await waitFor(() => deciders.every((d) => d.events.some((e) => e.type === 'policy' && e.rewards === N)), 'both deciders to swap in the policy of all rewards');
    const afterArms: number[] = [];
    for (let i = 0; i < AFTER; i++) {
      const after = await post<Decided>(`${urls[1]}decide`, { context: [1, Math.cos(i)] });
      afterArms.push(after.json.arm);
      expect(after.json.policyRewards).toBe(N);
      expect(after.json.policyVersion).toBeGreaterThan(decided[0].policyVersion);
    }
    const letters = await readRecords(port, `${prefix}.rewards.dlq`, 1);
    expect(letters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([[decided[0].decisionId, 'duplicate-reward']]);

    // Every reward learned once: the published policy has each arm's posterior fed its own decisions, N in all.
    const store = await KafkaSnapshotStore.open(port, { topic: `${prefix}.policy` });
    const { snapshot, meta } = decodeSnapshot((await store.latest('shop/global'))!);
    await store.close();
    expect(meta.rewards).toBe(N);
    const perArm = new Array<number>(ARMS).fill(0);
    for (const d of decided) perArm[d.arm]++;
    expect(ThompsonPolicy.restore(snapshot).models.map((m) => m.recordsSeen)).toEqual(perArm);

    // The learner's metrics.
    const learnerUrl = (learner.events.find((e) => e.type === 'metrics') as { url: string }).url;
    const scrape = async () => parsePrometheusText(await (await fetch(learnerUrl)).text());
    await waitFor(async () => sampleValue(await scrape(), 'vbstream_bandit_pending_decisions') === AFTER, `the learner to read the ${AFTER} unrewarded decisions`);
    const learned = await scrape();
    expect(sampleValue(learned, 'vbstream_bandit_joined_decisions_total', { pipeline: 'shop' })).toBe(N + AFTER);
    expect(sampleValue(learned, 'vbstream_bandit_rewards_total', { outcome: 'rewarded' })).toBe(N);
    expect(sampleValue(learned, 'vbstream_bandit_cumulative_reward')).toBe(decided.reduce((s, d) => s + rewardOf(d), 0));
    expect(sampleValue(learned, 'vbstream_bandit_reward_delay_seconds_count')).toBe(N);
    expect(sampleValue(learned, 'vbstream_bandit_dead_letters_total', { reason: 'duplicate-reward' })).toBe(1);
    expect((await fetch(learnerUrl.replace('/metrics', '/readyz'))).status).toBe(200);

    // The learner's live page: its frames carry the arms' choices and the cumulative reward.
    const page = (learner.events.find((e) => e.type === 'metrics') as { live: string }).live;
    expect((await fetch(page)).status).toBe(200);
    const latestFrame = async (): Promise<LiveFrame> => {
      const controller = new AbortController();
      const response = await fetch(`${page}events`, { signal: controller.signal });
      const { value } = await response.body!.getReader().read();
      controller.abort();
      const history = JSON.parse(/^data: (.*)$/m.exec(new TextDecoder().decode(value))![1]) as { frames: LiveFrame[] };
      return history.frames[history.frames.length - 1];
    };
    await waitFor(async () => (await latestFrame()).bandit?.arms?.choices.reduce((a, b) => a + b, 0) === N + AFTER, 'the live page to show every decision\'s arm');
    const frame = await latestFrame();
    const chosen = Array.from({ length: ARMS }, (_, a) => decided.filter((d) => d.arm === a).length + afterArms.filter((arm) => arm === a).length);
    expect(frame.bandit?.arms?.choices).toEqual(chosen);
    expect(frame.bandit?.cumulativeReward).toBe(decided.reduce((sum, d) => sum + rewardOf(d), 0));

    // The deciders' metrics: their decisions, propensities, estimated regret, served policy and requests.
    for (const [k, url] of urls.entries()) {
      const samples = parsePrometheusText(await (await fetch(`${url}metrics`)).text());
      const mine = decided.filter((d) => d.instance === (deciders[k].events.find((e) => e.type === 'listening') as { instance: string }).instance).length + (k === 1 ? AFTER : 0);
      expect(sampleValue(samples, 'vbstream_bandit_decisions_total')).toBe(mine);
      expect(sampleValue(samples, 'vbstream_bandit_propensity_count')).toBe(mine);
      expect(sampleValue(samples, 'vbstream_bandit_policy_rewards')).toBe(N);
      expect(sampleValue(samples, 'vbstream_bandit_http_requests_total', { route: '/decide', status: '200' })).toBe(mine);
      expect(sampleValue(samples, 'vbstream_bandit_http_requests_total', { route: '/reward', status: '202' })).toBe(N / 2 + (k === 0 ? 1 : 0));
    }
    // Each process exports its own role's series only: none in both (a dashboard over all of them shows each once).
    const names = (text: string): Set<string> => new Set(parsePrometheusText(text).map((sample) => sample.name.replace(/_(bucket|sum|count)$/, '')).filter((name) => name.startsWith('vbstream_bandit_')));
    const learnerSeries = names(await (await fetch(learnerUrl)).text());
    for (const url of urls) {
      const deciderSeries = names(await (await fetch(`${url}metrics`)).text());
      expect([...deciderSeries].filter((name) => learnerSeries.has(name)), 'series exported by a decider and the learner').toEqual([]);
      expect(deciderSeries).toContain('vbstream_bandit_arm_decisions_total');
    }
    expect(learnerSeries).toContain('vbstream_bandit_pending_decisions');
    const armDecisions = await Promise.all(urls.map(async (url) => parsePrometheusText(await (await fetch(`${url}metrics`)).text())));
    for (let a = 0; a < ARMS; a++) expect(armDecisions.flat().filter((sample) => sample.name === 'vbstream_bandit_arm_decisions_total' && sample.labels.arm === String(a)).reduce((sum, sample) => sum + sample.value, 0)).toBe(chosen[a]);
    expect(await regretOf(urls[1]), 'arms 0 and 1 are both always rewarded: Thompson sampling plays the one of lower posterior mean some of the time').toBeGreaterThan(0);

    for (const service of [...deciders, learner]) {
      expect(await service.stop()).toEqual({ code: 0, signal: null });
      expect(service.stderr).toBe('');
    }
  });
});
