import type { ErrorLocation } from './vbstream-error.js';

/** One thing wrong with one record (or one field of a predict input): what, and where. */
export interface InputProblem {
  readonly reason: string;
  readonly location: ErrorLocation;
}
