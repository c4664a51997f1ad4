/**
 * A Kafka learner's life: started once (a second {@link start} returns the first's promise),
 * stopped once (likewise {@link stop}), its first failure kept and told to the start's `onFatal`.
 */
export class LearnerLifecycle {
  /** Set by the learner as its stop begins: no work is started after it. */
  stopping = false;
  /** Set by the learner once its start has finished. */
  started = false;
  /** The first failure, once one stopped the learner. */
  failure: Error | undefined;
  /** The start, once asked for. */
  starting: Promise<void> | undefined;
  private fatal: ((error: Error) => void) | undefined;
  private stopped: Promise<void> | undefined;

  /** Runs `begin` once; `onFatal` hears the first failure after. */
  start(onFatal: (error: Error) => void, begin: () => Promise<void>): Promise<void> {
    this.fatal = onFatal;
    this.starting ??= begin();
    return this.starting;
  }

  /** Runs `shutdown` once. */
  stop(shutdown: () => Promise<void>): Promise<void> {
    this.stopped ??= shutdown();
    return this.stopped;
  }

  /** Keeps the first failure and tells `onFatal`; a later one is dropped. */
  fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error instanceof Error ? error : new Error(String(error));
    this.fatal?.(this.failure);
  }
}
