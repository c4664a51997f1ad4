import type { BrokerReachability } from '../broker-outage.js';

/**
 * What a {@link KeyedJoinLearner} reports as it runs: the partitions assigned after each group
 * join, a partition restored (from its state, or fresh), expiry markers written, a partition's
 * state made durable, the merged model published (`learned` and `pending` over every partition's
 * durable state), and the brokers becoming unreachable and reachable again.
 */
export type KeyedJoinEvent =
  | { readonly type: 'assigned'; readonly partitions: readonly number[]; readonly generation: number }
  | { readonly type: 'restored'; readonly partition: number; readonly fromSnapshot: boolean; readonly outcomesOffset: number; readonly loggedOffset: number; readonly pending: number; readonly learned: number }
  | { readonly type: 'expiring'; readonly count: number }
  | { readonly type: 'checkpoint'; readonly partition: number; readonly outcomesOffset: number; readonly loggedOffset: number; readonly pending: number; readonly learned: number; readonly chunks: number }
  | { readonly type: 'published'; readonly partitions: readonly number[]; readonly pending: number; readonly learned: number }
  | BrokerReachability;
