import { describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS } from '../../connectors/kafka/dead-letter-sink.js';
import { armModelSpec } from '../../examples/thompson-bandit/arm-model.js';
import type { Decision } from '../../examples/thompson-bandit/bandit-backend.js';
import { KafkaBandit } from '../../examples/thompson-bandit/kafka-bandit.js';
import { ThompsonPolicy } from '../../src/bandit/thompson-policy.js';
import { Rng } from '../../src/rng/rng.js';
import { brokerPort, readRecords, unique, waitFor } from './helpers.js';

const ARMS = 3;
const D = 4;
const N = 60;

describe('bandit example over Kafka, on vbstream/bandit/kafka (real broker)', () => {
  it('answers decide requests on <prefix>.answers, learns the rewards once, dead-letters bad requests and unknown rewards with their reason and keeps running', async () => {
    const port = brokerPort();
    const prefix = unique('bandit');
    let crash: Error | undefined;
    const bandit = await KafkaBandit.start(port, () => new ThompsonPolicy({ arms: ARMS, dim: D, model: armModelSpec('vb-logit-online'), seed: 7, propensityDraws: 200 }), { topicPrefix: prefix, onCrash: (e) => { crash = e; } });
    const producer = port.producer();
    await producer.connect();
    try {
      const rng = Rng.fromSeed(3);
      const requests = Array.from({ length: N }, (_, i) => ({ key: `c${i}`, value: JSON.stringify({ context: [1, rng.normal(), rng.normal(), rng.normal()] }) }));
      requests.splice(20, 0, { key: 'bad-json', value: '{"context": [1, 2' }, { key: 'bad-width', value: JSON.stringify({ context: [1, 2] }) });
      await producer.send({ topic: `${prefix}.decide`, messages: requests, acks: -1 });

      const records = await readRecords(port, `${prefix}.answers`, N);
      expect(records).toHaveLength(N);
      const decisions = new Map(records.map((r) => [r.key!, JSON.parse(r.value!.toString()) as Decision]));
      expect([...decisions.keys()].sort()).toEqual(Array.from({ length: N }, (_, i) => `c${i}`).sort());
      const perArm = new Array<number>(ARMS).fill(0);
      for (const decision of decisions.values()) {
        expect(Number.isInteger(decision.arm) && decision.arm >= 0 && decision.arm < ARMS).toBe(true);
        expect(decision.propensity).toBeGreaterThan(0);
        expect(decision.propensity).toBeLessThanOrEqual(1);
        expect(decision.scores).toHaveLength(ARMS);
        perArm[decision.arm]++;
      }
      expect(bandit.learner.learned).toBe(0);
      expect(await readRecords(port, `${prefix}.decisions`, N)).toHaveLength(N);

      const rewards = [...decisions.values()].map((d) => ({ key: d.decisionId, value: JSON.stringify({ decisionId: d.decisionId, reward: d.arm === 0 ? 1 : 0 }) }));
      rewards.splice(10, 0, { key: 'ghost', value: JSON.stringify({ decisionId: 'no-such-decision', reward: 1 }) });
      await producer.send({ topic: `${prefix}.rewards`, messages: rewards, acks: -1 });
      await waitFor(() => bandit.learner.learned === N, () => `${N} rewards learned (have ${bandit.learner.learned})`);
      expect((bandit.learner.currentPolicy as ThompsonPolicy).models.map((m) => m.recordsSeen)).toEqual(perArm);

      const decideLetters = await readRecords(port, `${prefix}.decide.dlq`, 2);
      expect(decideLetters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([['bad-json', 'bad-json'], ['bad-width', 'wrong-width']]);
      expect(decideLetters[1].headers[DEAD_LETTER_HEADERS.detail]).toContain('context has 2 features, the model has 4');
      expect(decideLetters[1].headers[DEAD_LETTER_HEADERS.offset]).toBe('21');
      const rewardLetters = await readRecords(port, `${prefix}.rewards.dlq`, 1);
      expect(rewardLetters.map((l) => [l.key, l.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([['ghost', 'unknown-decision']]);
      expect(bandit.deadLetters.countsByReason()).toMatchObject({ 'bad-json': 1, 'wrong-width': 1 });
      expect(bandit.learner.deadLettersByReason()).toMatchObject({ 'unknown-decision': 1 });
      expect(crash).toBeUndefined();
    } finally {
      await producer.disconnect();
      await bandit.stop();
    }
  });
});
