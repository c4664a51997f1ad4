import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/** Bad data: a non-finite value, a label outside its coding, a wrong width or type. Not retriable. */
export class InputError extends VbstreamError {
  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown }) {
    super('input', reason, location, false, options);
  }
}
