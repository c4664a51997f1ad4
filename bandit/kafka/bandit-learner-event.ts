import type { BrokerReachability } from '../../connectors/kafka/broker-outage.js';

/**
 * What a {@link BanditLearner} reports as it runs (the learner service prints these as JSON lines):
 * the partitions assigned after each group join, a partition restored (from its state, or fresh),
 * expiry markers written, a partition's state made durable, the merged policy published
 * (`learned` and `pending` over every partition's durable state), and the brokers becoming
 * unreachable and reachable again (an outage being ridden out).
 */
export type BanditLearnerEvent =
  | { readonly type: 'assigned'; readonly partitions: readonly number[]; readonly generation: number }
  | { readonly type: 'restored'; readonly partition: number; readonly fromSnapshot: boolean; readonly rewardsOffset: number; readonly decisionsOffset: number; readonly pending: number; readonly learned: number }
  | { readonly type: 'expiring'; readonly decisions: number }
  | { readonly type: 'checkpoint'; readonly partition: number; readonly rewardsOffset: number; readonly decisionsOffset: number; readonly pending: number; readonly learned: number; readonly chunks: number }
  | { readonly type: 'published'; readonly partitions: readonly number[]; readonly pending: number; readonly learned: number }
  | BrokerReachability;
