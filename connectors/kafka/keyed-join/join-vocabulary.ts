import type { DeadLetterReason } from '../dead-letter-reason.js';

/**
 * The words a keyed join is told in: what a logged record and an outcome are, what a logged record
 * whose outcome was learned is called, an outcome record's id and value fields, and the dead-letter
 * reasons of outcomes that find no pending record. They also name the state layout, so each join
 * keeps its own: the head meta fields `<logged>sTopic`, `<outcome>sTopic`, `<logged>sOffset`,
 * `<outcome>sOffset`, the pending entries' `<logged>` key and the resolved tag `<joined>`.
 */
export interface JoinVocabulary {
  /** A logged record, e.g. `decision`, `prediction`. */
  readonly logged: string;
  /** An outcome, e.g. `reward`, `outcome`. */
  readonly outcome: string;
  /** A logged record whose outcome was learned, e.g. `rewarded`, `labelled`. */
  readonly joined: string;
  /** The id field of an outcome record (and of the logged record it joins), e.g. `decisionId`. */
  readonly idField: string;
  /** The value field of an outcome record, e.g. `reward`, `y`. */
  readonly valueField: string;
  /** Dead-letter reason of an outcome whose id was never logged (or was resolved too long ago to be remembered). */
  readonly unknown: DeadLetterReason;
  /** Dead-letter reason of a second outcome for a logged record already joined. */
  readonly duplicate: DeadLetterReason;
  /** Dead-letter reason of an outcome that came after its logged record's window closed. */
  readonly late: DeadLetterReason;
}
