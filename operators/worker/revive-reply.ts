import type { VbstreamError } from '../../src/core/vbstream-error.js';
import { typedError } from '../typed-error.js';
import type { WorkerReply } from './worker-task.js';

/** The successful worker reply, or the worker's typed error rebuilt and thrown in this thread. */
export function reviveReply(reply: WorkerReply): Extract<WorkerReply, { ok: true }> {
  if (reply.ok) return reply;
  const { kind, reason, location, retriable } = reply.error;
  const error: VbstreamError = typedError(kind, reason, location, retriable);
  if (reply.stack !== undefined) error.stack = `${error.name}: ${error.message}\n    (in worker) ${reply.stack}`;
  throw error;
}
