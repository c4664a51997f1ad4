import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/** Arrays or models whose dimensions do not fit together. Not retriable. */
export class ShapeError extends VbstreamError {
  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown }) {
    super('shape', reason, location, false, options);
  }
}
