import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/** An invalid option or configuration value. Not retriable. */
export class ConfigError extends VbstreamError {
  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown }) {
    super('config', reason, location, false, options);
  }
}
