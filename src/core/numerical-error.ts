import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/** A numerical failure: a matrix that is not positive definite after jitter, a diverging iteration. Not retriable. */
export class NumericalError extends VbstreamError {
  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown }) {
    super('numerical', reason, location, false, options);
  }
}
