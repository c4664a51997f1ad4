import { serveUntilSignal, type StoppableService } from '../connectors/kafka/serve-until-signal.js';
import type { Readiness } from '../monitoring/readiness.js';

/**
 * Runs a keyed-join learner service until a signal (`serveUntilSignal`): its readiness condition
 * `learner-started` is set once the learner started; the signal that stops it is printed as
 * `{"type":"stopping","signal":…}`; the stop writes the final state snapshots, then `close` closes
 * the stores and the metrics server. Resolves the exit code.
 */
export function serveJoinLearner(learner: StoppableService, name: string, readiness: Readiness, close: () => Promise<unknown>, shutdownTimeoutMs: number | undefined): Promise<number> {
  const service = {
    start: async (onFatal: (error: Error) => void): Promise<void> => {
      await learner.start(onFatal);
      readiness.set('learner-started');
    },
    stop: () => learner.stop(),
  };
  return serveUntilSignal(service, name, close, {
    shutdownTimeoutMs, stopping: 'writing the final state snapshots and disconnecting from Kafka', onSignal: (signal) => process.stdout.write(`${JSON.stringify({ type: 'stopping', signal })}\n`),
  });
}
