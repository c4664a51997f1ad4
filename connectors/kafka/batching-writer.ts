import { ConfigError } from '../../src/core/config-error.js';
import { VbstreamError } from '../../src/core/vbstream-error.js';
import { isRetriableKafkaFailure } from './is-retriable-kafka-failure.js';
import type { AdminPort, PortOutgoingMessage, ProducerPort } from './kafka-port.js';

/** Options of {@link BatchingWriter}. */
export interface BatchingWriterOptions {
  /** The topic whose offsets the writer asks for, every second while a write has failed, to learn that the brokers are back. */
  readonly probeTopic: string;
  /** A write unacknowledged for longer than this is a broker problem ({@link BatchingWriter.brokerProblem}), ms; default 10,000. */
  readonly unresponsiveAfterMs?: number;
}

/** How often a writer whose last write failed asks the brokers whether they are back, ms. */
const PROBE_EVERY_MS = 1_000;

/** Messages waiting for the next send to their topic, with the callers to tell. */
interface Queue {
  readonly topic: string;
  readonly noun: string;
  messages: PortOutgoingMessage[];
  waiting: ((error?: unknown) => void)[];
  /** Sends of this topic in flight. */
  sending: number;
}

/**
 * Writes what a service must log before it answers (a decision, a prediction) to Kafka with acks
 * from all in-sync replicas, through the caller's (idempotent) producers. `append` batches: each
 * producer has at most one send in flight (both clients send an idempotent producer's requests one
 * at a time); the appends of one turn of the event loop (the requests read together) go out together
 * at its end (`setImmediate`, no timer) on a producer with none, and the messages appended while
 * every producer is busy go out together in the next send of the first one free. Each caller's
 * promise settles when the send holding its messages does: a failed send fails exactly the callers
 * it carried. A message is in one send of one producer only, so each producer's idempotence keeps
 * it written once; records of one partition from different producers interleave in any order. A
 * failed write rejects with an `io` `VbstreamError` naming the topic and the broker's error
 * (retriable unless the client says no retry can cure it), and {@link brokerProblem} says what is
 * wrong while writes fail or hang.
 */
export class BatchingWriter {
  private readonly queues = new Map<string, Queue>();
  /** The producers with no send of `append`'s in flight. */
  private readonly idle: ProducerPort[];
  /** Round robin of `write` over the producers. */
  private turn = 0;
  /** Start times of the writes in flight. */
  private readonly writes = new Set<{ readonly since: number }>();
  /** Why the last write failed, until a write or a probe of the brokers succeeds. */
  private failure: string | undefined;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private stopped = false;
  /** Whether a send of what the queues hold is due at the end of this turn of the event loop. */
  private flushDue = false;
  private readonly unresponsiveAfterMs: number;

  /** `producers`: at least one, each idempotent, connected and disconnected by the caller. */
  constructor(private readonly producers: readonly ProducerPort[], private readonly admin: AdminPort, private readonly options: BatchingWriterOptions) {
    if (producers.length === 0) throw new ConfigError('a BatchingWriter needs at least one producer', { field: 'producers', value: 0 });
    this.idle = [...producers];
    this.unresponsiveAfterMs = options.unresponsiveAfterMs ?? 10_000;
  }

  /**
   * What keeps messages from being written, or undefined while the brokers take them: the last
   * write's failure (until a write succeeds, or the brokers answer the probe the writer sends every
   * second meanwhile, so that a service taken out of a load balancer's rotation comes back), or a
   * write unacknowledged for longer than `unresponsiveAfterMs` (a hung broker).
   */
  get brokerProblem(): string | undefined {
    if (this.failure !== undefined) return this.failure;
    let oldest = Infinity;
    for (const write of this.writes) oldest = Math.min(oldest, write.since);
    const waited = Date.now() - oldest;
    return waited > this.unresponsiveAfterMs ? `no acknowledgement from the brokers for ${Math.floor(waited / 1000)} s (a write is pending)` : undefined;
  }

  /** Appends `messages` (of one caller, `noun` naming one of them in errors: `decision`) to the next send to `topic`; resolves once they are durable. */
  append(topic: string, noun: string, messages: readonly PortOutgoingMessage[]): Promise<void> {
    let queue = this.queues.get(topic);
    if (queue === undefined) this.queues.set(topic, (queue = { topic, noun, messages: [], waiting: [], sending: 0 }));
    const pending = queue;
    return new Promise<void>((resolve, reject) => {
      for (const message of messages) pending.messages.push(message);
      pending.waiting.push((error) => (error === undefined ? resolve() : reject(error)));
      this.flushSoon();
    });
  }

  /** Writes `messages` to `topic` now, through the producers in turn (`what` names them in errors: `the reward`), and resolves once they are durable. */
  write(topic: string, what: string, messages: PortOutgoingMessage[]): Promise<void> {
    return this.writeWith(this.producers[this.turn++ % this.producers.length], topic, what, messages);
  }

  private async writeWith(producer: ProducerPort, topic: string, what: string, messages: PortOutgoingMessage[]): Promise<void> {
    const write = { since: Date.now() };
    this.writes.add(write);
    try {
      await producer.send({ topic, messages, acks: -1 });
      this.failure = undefined;
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause);
      this.failure = `writing to ${topic} failed: ${reason}`;
      this.probeSoon();
      throw new VbstreamError('io', `${what} could not be written to ${topic}: ${reason}`, { source: topic }, isRetriableKafkaFailure(cause), { cause });
    } finally {
      this.writes.delete(write);
    }
  }

  /** Resolves once every appended message has been sent (or failed). */
  async drain(): Promise<void> {
    const busy = (): boolean => [...this.queues.values()].some((queue) => queue.sending > 0 || queue.messages.length > 0);
    while (busy()) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Stops probing the brokers (the producer and admin are the caller's to disconnect). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probe);
  }

  /** Sends what the queues hold on idle producers at the end of this turn of the event loop, so that the appends of one turn (requests read together) go in one send. */
  private flushSoon(): void {
    if (this.flushDue) return;
    this.flushDue = true;
    setImmediate(this.flush);
  }

  /** Sends what each queue holds on an idle producer, while there is one. */
  private readonly flush = (): void => {
    this.flushDue = false;
    for (const queue of this.queues.values()) {
      if (queue.messages.length === 0) continue;
      const producer = this.idle.shift();
      if (producer === undefined) return;
      void this.send(producer, queue);
    }
  };

  /** Sends every message `queue` holds on `producer`, settles their callers, then hands the producer to the next queue with messages. */
  private async send(producer: ProducerPort, queue: Queue): Promise<void> {
    const { topic, noun, messages, waiting } = queue;
    queue.messages = [];
    queue.waiting = [];
    queue.sending++;
    try {
      await this.writeWith(producer, topic, messages.length === 1 ? `the ${noun}` : `${messages.length} ${noun}s`, messages);
      for (const done of waiting) done();
    } catch (error) {
      for (const done of waiting) done(error);
    } finally {
      queue.sending--;
      this.idle.push(producer);
      this.flushSoon();
    }
  }

  /** While a failure stands, asks the brokers for the probe topic's offsets every second (one question at a time): an answer clears it. */
  private probeSoon(): void {
    if (this.probe !== undefined || this.probing || this.stopped) return;
    this.probe = setTimeout(() => {
      this.probe = undefined;
      if (this.failure === undefined || this.stopped) return;
      this.probing = true;
      this.admin.fetchTopicOffsets(this.options.probeTopic).then(() => {
        if (this.writes.size === 0) this.failure = undefined;
      }, () => undefined).finally(() => {
        this.probing = false;
        if (this.failure !== undefined) this.probeSoon();
      });
    }, PROBE_EVERY_MS);
    this.probe.unref();
  }
}
