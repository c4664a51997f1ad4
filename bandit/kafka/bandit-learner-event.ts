/** What a {@link BanditLearner} reports as it runs (the learner service prints these as JSON lines). */
export type BanditLearnerEvent =
  | { readonly type: 'restored'; readonly fromSnapshot: boolean; readonly rewardsOffsets: readonly number[]; readonly decisionsOffsets: readonly number[]; readonly pending: number; readonly learned: number }
  | { readonly type: 'expiring'; readonly decisions: number }
  | { readonly type: 'checkpoint'; readonly rewardsOffsets: readonly number[]; readonly decisionsOffsets: readonly number[]; readonly pending: number; readonly learned: number };
