import type { JoinState } from '../../connectors/kafka/keyed-join/join-state.js';
import type { JoinStateCodec, JoinStateIdentity } from '../../connectors/kafka/keyed-join/join-state-codec.js';
import { PendingJoins } from '../../connectors/kafka/keyed-join/pending-joins.js';
import type { SnapshotStore } from '../../connectors/kafka/snapshot-store.js';
import type { BanditPolicy } from '../../src/bandit/bandit-policy.js';
import { restorePolicy } from '../../src/bandit/restore-policy.js';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import type { LoggedDecision } from './logged-decision.js';

/** The header of the learner state of the single-learner layout (`model/learner`, one partition, pending decisions inline). */
interface SingleLearnerState {
  readonly decisionsTopic: string;
  readonly rewardsTopic: string;
  readonly decisionsOffsets: number[];
  readonly rewardsOffsets: number[];
  readonly learned: number;
  readonly pending: JsonValue;
}

/**
 * How the bandit learner's partition states are laid out on the state topic: a reward joined to a
 * logged decision, in the words of the layout it has always had (head meta `decisionsTopic`,
 * `rewardsTopic`, `decisionsOffset`, `rewardsOffset`; pending entries `{partition, decision}`;
 * resolved ids tagged `rewarded` or `expired`), the policy's own snapshot, and the upgrade path from
 * the single-learner layout: with one partition and no head yet, the state under `model/learner`
 * (pending decisions inline) is restored, so an upgrade resumes where the single learner stopped.
 */
export const BANDIT_STATE_CODEC: JoinStateCodec<LoggedDecision, BanditPolicy> = {
  vocabulary: { logged: 'decision', outcome: 'reward', joined: 'rewarded', idField: 'decisionId', valueField: 'reward', unknown: 'unknown-decision', duplicate: 'duplicate-reward', late: 'late-reward' },
  idOf: (decision) => decision.decisionId,
  timeOf: (decision) => decision.decidedAt,
  snapshot: (policy) => policy.snapshot(),
  restore: restorePolicy,
  previousState: readSingleLearnerState,
};

async function readSingleLearnerState(store: SnapshotStore, identity: JoinStateIdentity, _partition: number, partitions: number): Promise<JoinState<LoggedDecision, BanditPolicy> | undefined> {
  if (partitions !== 1) return undefined;
  const key = `${identity.model}/learner`;
  const bytes = await store.latest(key);
  if (bytes === undefined) return undefined;
  const { snapshot, meta } = decodeSnapshot(bytes);
  const state = meta as unknown as SingleLearnerState;
  const { loggedTopic, outcomesTopic } = identity;
  if (state.decisionsTopic !== loggedTopic || state.rewardsTopic !== outcomesTopic || state.rewardsOffsets?.length !== 1) {
    throw new SnapshotError(`learner state ${key} is of ${state.decisionsTopic} / ${state.rewardsTopic} with ${state.rewardsOffsets?.length} partitions, not ${loggedTopic} / ${outcomesTopic} with 1`, { source: outcomesTopic, field: 'meta' });
  }
  return { model: restorePolicy(snapshot), pending: PendingJoins.fromJson(state.pending, identity.remember, BANDIT_STATE_CODEC), loggedNext: state.decisionsOffsets[0], outcomesNext: state.rewardsOffsets[0], learned: state.learned };
}
