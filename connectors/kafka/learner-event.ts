/**
 * What a {@link PartitionedLearner} reports as it goes: the assignment after each group join, a
 * partition restored (from its snapshot, or fresh), a snapshot being written, durable, and the
 * offsets committed after it. `nextOffset` is the offset of the next record to read.
 */
export type LearnerEvent =
  | { readonly type: 'assigned'; readonly partitions: readonly number[]; readonly generation: number }
  | { readonly type: 'restored'; readonly partition: number; readonly nextOffset: number | null; readonly records: number; readonly fromSnapshot: boolean }
  | { readonly type: 'snapshot-writing' | 'snapshot-durable' | 'committed'; readonly partition: number; readonly nextOffset: number; readonly records: number };
