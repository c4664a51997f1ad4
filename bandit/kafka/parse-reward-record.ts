import { parseOutcomeRecord } from '../../connectors/kafka/keyed-join/parse-outcome-record.js';
import { BANDIT_STATE_CODEC } from './bandit-state-codec.js';

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

/** A rewards-topic value (parsed JSON) as a {@link RewardRecord} (the keyed join's outcome record in the bandit's words); anything else throws an `InputError` (field `reward` for a bad reward). */
export function parseRewardRecord(body: unknown): RewardRecord {
  const { id, value, expired } = parseOutcomeRecord(body, BANDIT_STATE_CODEC.vocabulary);
  return { decisionId: id, reward: value, expired };
}
