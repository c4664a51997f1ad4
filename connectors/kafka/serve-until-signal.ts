/** A long-running service: started with a callback for a fatal error after start, stopped cleanly. */
export interface StoppableService {
  start(onFatal: (error: Error) => void): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `service` as a process's main loop: SIGTERM or SIGINT stop it and exit 0, a failure to start or
 * a fatal error after start (reported on stderr as `<name> failed: …`) stop it and exit 1; stopping
 * then runs `close` (the stores the service used). Resolves the exit code once everything is closed,
 * or 1 when stopping itself fails.
 */
export function serveUntilSignal(service: StoppableService, name: string, close: () => Promise<unknown>): Promise<number> {
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const shutdown = (code: number): void => {
      if (stopping) return;
      stopping = true;
      service.stop().then(close).then(() => resolveExit(code), (error: unknown) => {
        process.stderr.write(`shutdown failed: ${error instanceof Error ? error.stack : String(error)}\n`);
        resolveExit(1);
      });
    };
    process.once('SIGTERM', () => shutdown(0));
    process.once('SIGINT', () => shutdown(0));
    service.start((error) => {
      process.stderr.write(`${name} failed: ${error.stack ?? error.message}\n`);
      shutdown(1);
    }).catch((error: unknown) => {
      process.stderr.write(`start failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      shutdown(1);
    });
  });
}
