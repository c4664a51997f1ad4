import type { DeadLetterReason } from '../dead-letter-reason.js';

/** A logged record or an outcome that a keyed join refuses, with the dead-letter reason it goes to its topic's DLQ with. */
export class JoinRefusal extends Error {
  constructor(readonly reason: DeadLetterReason, detail: string) {
    super(detail);
  }
}
