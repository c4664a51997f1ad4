/**
 * `error` from `@platformatic/kafka` as one line that names its causes: the client wraps a failed
 * connection in layers ("Connection to … failed." around an aggregate of attempts around, e.g.,
 * the authentication or certificate error), so the distinct messages of the chain are joined with
 * ": " (without their final full stops). The original error is the cause; its `code` is kept.
 */
export function platformaticFailure(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const messages: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const message = current.message.replace(/\.$/, '');
    if (message !== '' && !messages.includes(message)) messages.push(message);
    const inner = current instanceof AggregateError ? current.errors.find((e: unknown) => e instanceof Error) : undefined;
    current = inner ?? current.cause;
  }
  const failure = new Error(messages.join(': '), { cause: error });
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) Object.defineProperty(failure, 'code', { value: code, enumerable: true });
  return failure;
}
