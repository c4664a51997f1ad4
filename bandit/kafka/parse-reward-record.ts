import { InputError } from '../../src/core/input-error.js';

/**
 * A rewards-topic value: `{decisionId, reward}` from the application, or the learner's own marker
 * `{decisionId, expired: true[, reward]}` written when a decision's reward window closes (with the
 * default reward when expired decisions are learned, without one when they are dropped).
 */
export interface RewardRecord {
  readonly decisionId: string;
  readonly reward: number | undefined;
  readonly expired: boolean;
}

/** A rewards-topic value (parsed JSON) as a {@link RewardRecord}; anything else throws an `InputError` (field `reward` for a bad reward). */
export function parseRewardRecord(body: unknown): RewardRecord {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError('a reward must be a JSON object {"decisionId": "...", "reward": number}', { field: 'body' });
  const r = body as { readonly [key: string]: unknown };
  if (typeof r.decisionId !== 'string' || r.decisionId === '') throw new InputError('decisionId must be a non-empty string', { field: 'decisionId', value: r.decisionId });
  const expired = r.expired === true;
  const reward = r.reward === true ? 1 : r.reward === false ? 0 : r.reward;
  if (expired && reward === undefined) return { decisionId: r.decisionId, reward: undefined, expired };
  if (typeof reward !== 'number' || !Number.isFinite(reward)) throw new InputError('reward must be a finite number (or true/false)', { field: 'reward', value: r.reward });
  return { decisionId: r.decisionId, reward, expired };
}
