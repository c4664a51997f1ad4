/** A registered family id and its options, as a bandit creates its arm models. */
export interface ArmModelSpec {
  readonly family: string;
  /** The family's options; absent: `BANDIT_FAMILY_OPTIONS` for the family, else its own defaults. */
  readonly options?: unknown;
}

/** The kind of rewards a bandit sees: 0/1 (clicks, conversions) or real numbers. */
export type RewardKind = 'binary' | 'real';
