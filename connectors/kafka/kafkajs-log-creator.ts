import { logLevel, type logCreator } from 'kafkajs';

/**
 * Kafka error messages of conditions the client retries by itself while a broker or group
 * coordinator starts up or moves (COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
 * NOT_COORDINATOR, LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER): not worth an ERROR line.
 */
const TRANSIENT = /coordinator is loading|coordinator is not available|not the correct coordinator|no leader for this topic-partition|leader is not available|not the leader/i;

/**
 * kafkajs's log as JSON lines on stderr (its own format: level, timestamp, logger, message and the
 * entry's fields), with the transient errors above left out: what remains is worth reading.
 */
export const kafkajsLogCreator: logCreator = () => ({ level, log }) => {
  const { message, timestamp, ...fields } = log;
  if (level === logLevel.ERROR && typeof fields.error === 'string' && TRANSIENT.test(fields.error)) return;
  const name = level === logLevel.WARN ? 'WARN' : level === logLevel.INFO ? 'INFO' : level === logLevel.DEBUG ? 'DEBUG' : 'ERROR';
  process.stderr.write(`${JSON.stringify({ level: name, timestamp, logger: 'kafkajs', message, ...fields })}\n`);
};
