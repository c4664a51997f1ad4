import type { InputProblem } from './input-problem.js';
import { VbstreamError, type ErrorLocation } from './vbstream-error.js';

/**
 * Bad data: a non-finite value, a label outside its coding, a wrong width or type. Not retriable.
 * When a batch has several bad rows, `problems` lists every one (the message and `location` are the
 * first), so a caller can set them all aside in one pass.
 */
export class InputError extends VbstreamError {
  readonly problems: readonly InputProblem[];

  constructor(reason: string, location: ErrorLocation = {}, options?: { cause?: unknown; problems?: readonly InputProblem[] }) {
    super('input', reason, location, false, options?.cause === undefined ? undefined : { cause: options.cause });
    this.problems = options?.problems ?? [{ reason, location }];
  }
}
