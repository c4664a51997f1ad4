/** A long-running service: started with a callback for a fatal error after start, stopped cleanly. */
export interface StoppableService {
  start(onFatal: (error: Error) => void): Promise<void>;
  stop(): Promise<void>;
}

/** How {@link serveUntilSignal} shuts a service down. */
export interface ShutdownOptions {
  /** Longest the shutdown (stop, then close) may take, ms; past it the process exits 1 at once, naming the step that did not finish. Default 30,000. */
  readonly shutdownTimeoutMs?: number;
  /** Told the signal that starts the shutdown (e.g. to print that the service is stopping). */
  readonly onSignal?: (signal: NodeJS.Signals) => void;
  /** What `service.stop()` does, as a shutdown that does not finish names it; default `stopping the <name>`. */
  readonly stopping?: string;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs `service` as a process's main loop: SIGTERM or SIGINT stop it and exit 0, a failure to start or
 * a fatal error after start (reported on stderr as `<name> failed: …`) stop it and exit 1. Stopping
 * runs `service.stop()` and then, whether it succeeded or not, `close` (the stores the service used).
 * The shutdown ends within `shutdownTimeoutMs`: a stop or close that fails exits 1 with one stderr
 * line `<name>: shutdown failed: …` naming what did not finish; one still running at the deadline
 * (a broker that does not answer) exits 1 at once with `<name>: shutdown did not finish within … ms
 * (still …)`. A second SIGTERM/SIGINT during the shutdown exits 130 at once. Resolves the exit code
 * once everything is closed; a handle the service leaves open (a client still retrying a broker)
 * does not keep the process alive past it.
 */
export function serveUntilSignal(service: StoppableService, name: string, close: () => Promise<unknown>, options: ShutdownOptions = {}): Promise<number> {
  const timeoutMs = options.shutdownTimeoutMs ?? 30_000;
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const exit = (code: number): void => {
      resolveExit(code);
      setTimeout(() => process.exit(code), 1_000).unref();
    };
    const shutdown = async (code: number): Promise<void> => {
      stopping = true;
      let step = options.stopping ?? `stopping the ${name}`;
      const deadline = setTimeout(() => {
        process.stderr.write(`${name}: shutdown did not finish within ${timeoutMs} ms (still ${step}); exiting\n`);
        process.exit(1);
      }, timeoutMs);
      const failed: string[] = [];
      await service.stop().catch((error: unknown) => failed.push(`${step}: ${message(error)}`));
      step = `closing the ${name}'s stores`;
      await close().catch((error: unknown) => failed.push(`${step}: ${message(error)}`));
      clearTimeout(deadline);
      if (failed.length > 0) process.stderr.write(`${name}: shutdown failed: ${failed.join('; ')}\n`);
      exit(failed.length > 0 ? 1 : code);
    };
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`${name}: ${signal} again: exiting without finishing the shutdown\n`);
        process.exit(130);
      }
      options.onSignal?.(signal);
      void shutdown(0);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    service.start((error) => {
      if (stopping) return;
      process.stderr.write(`${name} failed: ${error.stack ?? error.message}\n`);
      void shutdown(1);
    }).catch((error: unknown) => {
      if (stopping) return;
      process.stderr.write(`start failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      void shutdown(1);
    });
  });
}
