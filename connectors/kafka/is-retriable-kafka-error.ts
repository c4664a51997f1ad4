/** Client errors that trying again cannot cure (the rest — network, timeouts, broker responses — can). */
const FINAL_CLIENT_ERRORS = new Set(['PLT_KFK_USER', 'PLT_KFK_AUTHENTICATION', 'PLT_KFK_UNSUPPORTED', 'PLT_KFK_UNSUPPORTED_API']);

/**
 * Whether the same Kafka operation may succeed later: kafkajs's rule — the error's innermost cause
 * is `retriable` (kafkajs marks the error it throws once its own retries are spent non-retriable,
 * around a retriable cause such as a refused connection) — extended to `@platformatic/kafka`'s
 * errors, retriable unless their code says no retry can help (authentication, a bad argument, an
 * unsupported API).
 */
export function isRetriableKafkaError(error: unknown): boolean {
  let cause: unknown = error;
  while (cause instanceof Error && cause.cause !== undefined) cause = cause.cause;
  if ((cause as { retriable?: unknown } | undefined)?.retriable === true) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('PLT_KFK_') && !FINAL_CLIENT_ERRORS.has(code);
}
