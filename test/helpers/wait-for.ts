/**
 * How long a test waits for something that should happen (a process to start or commit, a page to
 * draw, every record learned and saved) before it calls it a failure — the suite's one bound on a
 * wait. Generous on purpose: the suite must hold on a loaded machine (load ~15 on 2 cores), where
 * every step can be ten times slower; reaching it means the thing did not happen, never that it was slow.
 */
export const PATIENCE_MS = 180_000;

/** How long one test (or hook) may take: room for a wait that reaches {@link PATIENCE_MS} and what follows it, so its message is the one reported. */
export const TEST_TIMEOUT_MS = 2 * PATIENCE_MS;

/**
 * Polls `check` until it returns something other than `false` or `undefined` and resolves with it;
 * a check that throws counts as not yet (its last error is the timeout's cause). Rejects with
 * "timed out waiting for `what`" after `timeoutMs` (`what` as a function is read then, so it can
 * tell the state at the timeout).
 */
export async function waitFor<T>(check: () => T | false | undefined | Promise<T | false | undefined>, what: string | (() => string), timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}${last === undefined ? '' : ` (last error: ${String(last)})`}`, { cause: last });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
