import { VbstreamError } from '../../src/core/vbstream-error.js';

/** `@platformatic/kafka` error codes that a retry cannot cure (the rest — network, timeouts, broker responses — can). */
const FINAL_CLIENT_ERRORS = new Set(['PLT_KFK_USER', 'PLT_KFK_AUTHENTICATION', 'PLT_KFK_UNSUPPORTED', 'PLT_KFK_UNSUPPORTED_API']);

/** Socket errors of a broker that is down, restarting or unreachable for now. */
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * Whether trying a Kafka operation again may succeed: vbstream's own errors say so (`retriable`);
 * a kafkajs error whose innermost cause is marked retriable (kafkajs's own rule for restarting a
 * consumer); a `@platformatic/kafka` error (code `PLT_KFK_…`) other than a user, authentication
 * or unsupported-feature error; a socket error of an unreachable broker.
 */
export function isRetriableKafkaFailure(error: unknown): boolean {
  if (error instanceof VbstreamError) return error.retriable;
  let cause: unknown = error;
  while (cause instanceof Error && cause.cause !== undefined && !(cause instanceof VbstreamError)) cause = cause.cause;
  if (cause instanceof VbstreamError) return cause.retriable;
  if ((cause as { retriable?: unknown } | undefined)?.retriable === true) return true;
  const code = (error as { code?: unknown } | undefined)?.code ?? (cause as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('PLT_KFK_')) return !FINAL_CLIENT_ERRORS.has(code);
  return NETWORK_ERRORS.has(code);
}
