import { VbstreamError, type ErrorKind, type ErrorLocation } from '../src/core/vbstream-error.js';

/** How a worker thread reports a failure across the thread boundary: a typed error's parts, or an untyped error's message and stack. */
export type WorkerFailure =
  | { readonly error: { readonly kind: ErrorKind; readonly reason: string; readonly location: ErrorLocation; readonly retriable: boolean } }
  | { readonly message: string };

/** The failure a worker posts for a caught error. */
export function workerFailureOf(error: unknown): WorkerFailure {
  return error instanceof VbstreamError
    ? { error: { kind: error.kind, reason: error.reason, location: error.location, retriable: error.retriable } }
    : { message: error instanceof Error ? error.stack ?? error.message : String(error) };
}
