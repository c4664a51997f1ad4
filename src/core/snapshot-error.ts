import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/** A snapshot that is corrupt, truncated, of another family, version or dimension. Not retriable. */
export class SnapshotError extends VbstreamError {
  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown }) {
    super('snapshot', reason, location, false, options);
  }
}
