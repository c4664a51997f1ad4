/** What a restore check found wrong with a decoded snapshot: which array or field, where in it, and why. */
export interface SnapshotProblem {
  /** The snapshot array or state field (`V`, `records`, `header.prior.a0`). */
  readonly field: string;
  /** What is wrong, to follow the field's name: `must be positive`, `is not positive definite`. */
  readonly reason: string;
  /** The index of the first bad entry, when the problem is at an entry of an array. */
  readonly index?: number;
  /** The bad value, when there is one. */
  readonly value?: number;
}
