import type { KeyedJoinEvent } from '../../connectors/kafka/keyed-join/keyed-join-event.js';

/**
 * What a {@link BanditLearner} reports as it runs (the learner service prints these as JSON lines):
 * the keyed-join runtime's events (`KeyedJoinEvent`: the partitions assigned after each group join,
 * the merged policy published, the brokers becoming unreachable and reachable again), with a
 * partition restored, expiry markers written and a partition's state made durable in the bandit's
 * words (decisions and rewards).
 */
export type BanditLearnerEvent =
  | Exclude<KeyedJoinEvent, { readonly type: 'restored' | 'expiring' | 'checkpoint' }>
  | { readonly type: 'restored'; readonly partition: number; readonly fromSnapshot: boolean; readonly rewardsOffset: number; readonly decisionsOffset: number; readonly pending: number; readonly learned: number }
  | { readonly type: 'expiring'; readonly decisions: number }
  | { readonly type: 'checkpoint'; readonly partition: number; readonly rewardsOffset: number; readonly decisionsOffset: number; readonly pending: number; readonly learned: number; readonly chunks: number };
