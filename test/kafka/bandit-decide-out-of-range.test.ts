import { describe, expect, it } from 'vitest';
import type { BanditLearnerEvent } from '../../bandit/kafka/bandit-learner-event.js';
import { readRecords, ServiceProcess, suiteBroker, unique, waitFor } from './helpers.js';

type DeciderLine = { readonly type: 'listening'; readonly url: string; readonly instance: string } | { readonly type: 'policy'; readonly rewards: number; readonly version: number };

async function post(url: string, body: unknown): Promise<{ status: number; json: { [key: string]: unknown } }> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: response.status, json: await response.json() as { [key: string]: unknown } };
}

/** `vbstream bandit:learn` and `vbstream bandit:decide` as users run them (dist/cli/vbstream.js: `npm run build` first), over HTTP. */
describe('vbstream bandit:decide refuses an out-of-range context (real broker, issue 26 item 11)', () => {
  const { port } = suiteBroker();

  it('answers 400 naming context[1] and logs nothing for {"context":[1,1e200]}; the next decision is logged alone', async () => {
    const prefix = unique('kbandit-range');
    const topics = ['--decisions', `${prefix}.decisions`, '--rewards', `${prefix}.rewards`, '--policy-topic', `${prefix}.policy`, '--model', 'shop'];
    const learner = new ServiceProcess<BanditLearnerEvent>([...topics, '--state-topic', `${prefix}.state`, '--policy', JSON.stringify({ kind: 'thompson', arms: 3, dim: 2, seed: 3 }), '--reward-window-ms', '600000'], 'bandit:learn');
    const decider = new ServiceProcess<DeciderLine>([...topics, '--port', '0'], 'bandit:decide');
    let stopped: unknown;
    try {
      await waitFor(() => learner.events.some((e) => e.type === 'restored'), `the learner to start (stderr: ${learner.stderr})`, 60_000);
      await waitFor(() => decider.events.some((e) => e.type === 'listening'), `the decider to listen (stderr: ${decider.stderr})`, 60_000);
      const url = (decider.events.find((e) => e.type === 'listening') as { url: string }).url;
      await waitFor(async () => (await fetch(`${url}health`)).status === 200, `the decider to load the first policy (learner stderr: ${learner.stderr})`, 60_000);

      const refused = await post(`${url}decide`, { context: [1, 1e200] });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({ kind: 'input', reason: 'feature is out of range: |value| > maxAbsInput (1e+12)', location: { field: 'context[1]', value: 1e200 } });
      const decided = await post(`${url}decide`, { context: [1, 0.5] });
      expect(decided.status).toBe(200);
      expect(Number.isFinite(decided.json.propensity)).toBe(true);

      const logged = await readRecords(port, `${prefix}.decisions`, 1);
      expect(logged.map((r) => r.key), 'the decisions topic holds the good decision first and alone').toEqual([decided.json.decisionId]);
    } finally {
      stopped = await Promise.all([decider.stop(), learner.stop()]);
    }
    expect(stopped).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);
    expect(decider.stderr).toBe('');
  }, 180_000);
});
