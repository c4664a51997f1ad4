import { InputError } from 'vbstream';
import { parseFeatureVector } from '../shared/parse-feature-vector.js';

/** A decision request, as it arrives on any transport (HTTP body, a Kafka message value). */
export interface DecideRequest {
  readonly context: Float64Array;
}

/** A reward report for an earlier decision. */
export interface RewardRequest {
  readonly decisionId: string;
  readonly reward: 0 | 1;
}

const isObject = (body: unknown): body is { readonly [key: string]: unknown } => typeof body === 'object' && body !== null && !Array.isArray(body);

/** `{context: number[dim]}` → a {@link DecideRequest}; anything else throws a typed error (→ 400). */
export function parseDecideRequest(body: unknown, dim: number): DecideRequest {
  if (!isObject(body)) throw new InputError('body must be a JSON object {"context": [...]}', { field: 'body' });
  return { context: parseFeatureVector(body.context, dim, 'context') };
}

/** `{decisionId: string, reward: 0 | 1}` (true/false accepted) → a {@link RewardRequest}; anything else throws a typed error. */
export function parseRewardRequest(body: unknown): RewardRequest {
  if (!isObject(body)) throw new InputError('body must be a JSON object {"decisionId": "...", "reward": 0 | 1}', { field: 'body' });
  if (typeof body.decisionId !== 'string' || body.decisionId === '') throw new InputError('decisionId must be a non-empty string', { field: 'decisionId', value: body.decisionId });
  const reward = body.reward === true ? 1 : body.reward === false ? 0 : body.reward;
  if (reward !== 0 && reward !== 1) throw new InputError('reward must be 0 or 1', { field: 'reward', value: body.reward });
  return { decisionId: body.decisionId, reward };
}
