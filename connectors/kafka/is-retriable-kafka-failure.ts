import { VbstreamError } from '../../src/core/vbstream-error.js';

/** `@platformatic/kafka` error codes that a retry cannot cure (the rest — network, timeouts, broker responses — can, unless the broker says otherwise). */
const FINAL_CLIENT_ERRORS = new Set(['PLT_KFK_USER', 'PLT_KFK_AUTHENTICATION', 'PLT_KFK_UNSUPPORTED', 'PLT_KFK_UNSUPPORTED_API']);

/** Socket errors of a broker that is down, restarting or unreachable for now. */
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** Every error in `error`'s tree: itself, its causes and the errors an aggregate holds (at most 64). */
function errorTree(error: unknown): unknown[] {
  const nodes: unknown[] = [];
  const stack: unknown[] = [error];
  while (stack.length > 0 && nodes.length < 64) {
    const node = stack.pop();
    if (node === undefined || nodes.includes(node)) continue;
    nodes.push(node);
    if (node instanceof AggregateError) stack.push(...node.errors);
    if (node instanceof Error && node.cause !== undefined) stack.push(node.cause);
  }
  return nodes;
}

/**
 * Whether trying a Kafka operation again may succeed:
 * - vbstream's own errors say so (`retriable`);
 * - a `@platformatic/kafka` error whose tree holds a broker answer that cannot be retried
 *   (`canRetry: false`: a record too large, not authorised — a rebalance aside, which a rejoin
 *   cures) is final; one of network errors and
 *   timeouts, or any other `PLT_KFK_…` error but a user, authentication or unsupported-feature
 *   error, is retriable;
 * - a kafkajs error is retriable when its innermost cause is marked retriable (kafkajs's own rule
 *   for restarting a consumer);
 * - a socket error of an unreachable broker is retriable.
 */
export function isRetriableKafkaFailure(error: unknown): boolean {
  if (error instanceof VbstreamError) return error.retriable;
  const tree = errorTree(error);
  const property = (node: unknown, name: string): unknown => (typeof node === 'object' && node !== null ? (node as { [key: string]: unknown })[name] : undefined);
  const final = (node: unknown): boolean => (property(node, 'canRetry') === false && property(node, 'needsRejoin') !== true) || (node instanceof VbstreamError && !node.retriable);
  if (tree.some(final)) return false;
  if (tree.some((node) => property(node, 'canRetry') === true)) return true;
  let innermost: unknown = error;
  while (innermost instanceof Error && innermost.cause !== undefined) innermost = innermost.cause;
  if (property(innermost, 'retriable') === true) return true;
  return tree.some((node) => {
    const code = property(node, 'code');
    if (typeof code !== 'string') return false;
    return code.startsWith('PLT_KFK_') ? !FINAL_CLIENT_ERRORS.has(code) : NETWORK_ERRORS.has(code);
  });
}
