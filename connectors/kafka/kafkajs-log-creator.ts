import { logLevel, type logCreator } from 'kafkajs';

/**
 * Kafka error messages of conditions the client retries by itself while a broker or group
 * coordinator starts up or moves (COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
 * NOT_COORDINATOR, LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER): not worth an ERROR line.
 */
const TRANSIENT = /coordinator is loading|coordinator is not available|not the correct coordinator|no leader for this topic-partition|leader is not available|not the leader/i;

/**
 * kafkajs's log as JSON lines on stderr (its own format: level, timestamp, logger, message and the
 * entry's fields), with the transient errors above left out — in a request's error, or as a consumer
 * "Crash" together with the "Restarting the consumer" line that follows it: what remains is worth reading.
 */
export const kafkajsLogCreator: logCreator = () => {
  const restartingAfterTransient = new Set<unknown>();
  return ({ level, log }) => {
    const { message, timestamp, ...fields } = log;
    if (level === logLevel.ERROR) {
      if (typeof fields.error === 'string' && TRANSIENT.test(fields.error)) return;
      if (message.startsWith('Crash: ') && TRANSIENT.test(message)) {
        restartingAfterTransient.add(fields.groupId);
        return;
      }
      if (message.startsWith('Restarting the consumer') && restartingAfterTransient.delete(fields.groupId)) return;
    }
    write(level, message, timestamp, fields);
  };
};

function write(level: number, message: string, timestamp: string, fields: { readonly [key: string]: unknown }): void {
  const name = level === logLevel.WARN ? 'WARN' : level === logLevel.INFO ? 'INFO' : level === logLevel.DEBUG ? 'DEBUG' : 'ERROR';
  process.stderr.write(`${JSON.stringify({ level: name, timestamp, logger: 'kafkajs', message, ...fields })}\n`);
}
