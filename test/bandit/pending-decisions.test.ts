import { describe, expect, it } from 'vitest';
import type { LoggedDecision } from '../../bandit/kafka/logged-decision.js';
import { parseLoggedDecision } from '../../bandit/kafka/parse-logged-decision.js';
import { parseRewardRecord } from '../../bandit/kafka/parse-reward-record.js';
import { BANDIT_STATE_CODEC } from '../../bandit/kafka/bandit-state-codec.js';
import { PendingJoins } from '../../connectors/kafka/keyed-join/pending-joins.js';

const decision = (id: string, decidedAt: number): LoggedDecision => ({
  decisionId: id, arm: 1, propensity: 0.5, propensityMethod: 'monte-carlo', scores: [0.1, 0.2], context: [1, 0.1 + 0.2], decidedAt, instance: 'i', policyRewards: 0,
});

describe('PendingJoins: the bandit learner join state', () => {
  it('tells pending, rewarded, expired and unknown decisions apart, and holds a decision id once', () => {
    const state = new PendingJoins<LoggedDecision>(10, BANDIT_STATE_CODEC);
    expect(state.add(decision('a', 0), 0)).toBe(true);
    expect(state.add(decision('b', 50), 1)).toBe(true);
    expect(state.add(decision('a', 0), 0)).toBe(false);
    expect(state.due(100, 60).map((e) => e.logged.decisionId)).toEqual(['a']);
    state.resolve('a', 'joined');
    state.resolve('b', 'expired');
    expect([state.status('a'), state.status('b'), state.status('c'), state.size]).toEqual(['joined', 'expired', 'unknown', 0]);
    expect(state.add(decision('a', 0), 0)).toBe(false);
  });

  it('forgets the oldest resolved ids beyond `remember`', () => {
    const state = new PendingJoins<LoggedDecision>(2, BANDIT_STATE_CODEC);
    for (const id of ['a', 'b', 'c']) {
      state.add(decision(id, 0), 0);
      state.resolve(id, 'joined');
    }
    expect(['a', 'b', 'c'].map((id) => state.status(id))).toEqual(['unknown', 'joined', 'joined']);
  });

  it('round-trips through JSON with the contexts bit for bit', () => {
    const state = new PendingJoins<LoggedDecision>(5, BANDIT_STATE_CODEC);
    state.add(decision('a', 1), 0);
    state.add(decision('b', 2), 1);
    state.resolve('a', 'expired');
    const restored = PendingJoins.fromJson<LoggedDecision>(JSON.parse(JSON.stringify(state.toJson())), 5, BANDIT_STATE_CODEC);
    expect(restored.status('a')).toBe('expired');
    expect(restored.get('b')).toEqual({ logged: decision('b', 2), partition: 1 });
    expect(restored.get('b')!.logged.context[1]).toBe(0.1 + 0.2);
  });
});

describe('bandit record parsing', () => {
  it('reads a logged decision and refuses a wrong one with the field at fault', () => {
    expect(parseLoggedDecision(JSON.parse(JSON.stringify(decision('a', 3))), 2, 2)).toEqual(decision('a', 3));
    expect(parseLoggedDecision({ ...decision('a', 3), propensityMethod: 'quadrature' }, 2, 2).propensityMethod).toBe('quadrature');
    expect(() => parseLoggedDecision({ ...decision('a', 3), arm: 2 }, 2, 2)).toThrow(/arm must be an integer in \[0, 2\)/);
    expect(() => parseLoggedDecision({ ...decision('a', 3), context: [1] }, 2, 2)).toThrow(/context must be 2 finite numbers/);
  });

  it('reads rewards and expiry markers; a reward that is not a finite number is refused as `reward`', () => {
    expect(parseRewardRecord({ decisionId: 'a', reward: true })).toEqual({ decisionId: 'a', reward: 1, expired: false });
    expect(parseRewardRecord({ decisionId: 'a', expired: true })).toEqual({ decisionId: 'a', reward: undefined, expired: true });
    expect(parseRewardRecord({ decisionId: 'a', expired: true, reward: 0 })).toEqual({ decisionId: 'a', reward: 0, expired: true });
    expect(() => parseRewardRecord({ decisionId: 'a', reward: 'x' })).toThrow(expect.objectContaining({ location: expect.objectContaining({ field: 'reward' }) }));
    expect(() => parseRewardRecord({ reward: 1 })).toThrow(/decisionId/);
  });
});
