import type { DeadLetterReason } from '../dead-letter-reason.js';

/** What a keyed join reports as it learns, for its metrics; every hook is optional. */
export interface JoinObserver<L> {
  /** A logged record was read into a partition's pending state (once per id and state). */
  logged?(logged: L): void;
  /** An outcome was learned; `outcomeTimeMs` is the outcome record's timestamp. */
  joined?(logged: L, value: number, outcomeTimeMs: number): void;
  /** A pending record's window closed: learned with the default value, or dropped (`value` undefined). */
  expired?(logged: L, value: number | undefined): void;
  /** A record went to a dead-letter topic. */
  deadLetter?(reason: DeadLetterReason): void;
  /** Logged records pending over the partitions this instance owns. */
  pending?(count: number): void;
}
