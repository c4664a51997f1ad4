import type { BrokerReachability } from './broker-outage.js';

/**
 * What a {@link PartitionedLearner} reports as it goes: the assignment after each group join, a
 * partition restored (from its snapshot, or fresh), started over from its earliest offset
 * (`missingSnapshot: 'from-earliest'`), a snapshot being written, durable, and the offsets
 * committed after it; a partition's dead-letter share crossing its alarm (up or down, with a
 * one-line `detail`); the brokers becoming unreachable and reachable again. `nextOffset` is the
 * offset of the next record to read.
 */
export type LearnerEvent =
  | { readonly type: 'assigned'; readonly partitions: readonly number[]; readonly generation: number }
  | { readonly type: 'restored'; readonly partition: number; readonly nextOffset: number | null; readonly records: number; readonly fromSnapshot: boolean }
  | { readonly type: 'starting-over'; readonly partition: number; readonly committed: number; readonly nextOffset: number }
  | { readonly type: 'snapshot-writing' | 'snapshot-durable' | 'committed'; readonly partition: number; readonly nextOffset: number; readonly records: number }
  | { readonly type: 'dead-letters-alarm' | 'dead-letters-normal'; readonly partition: number; readonly share: number; readonly records: number; readonly deadLetters: number; readonly detail: string }
  | BrokerReachability;
