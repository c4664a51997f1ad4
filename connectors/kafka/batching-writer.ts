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
  messages: PortOutgoingMessage[];
  waiting: ((error?: unknown) => void)[];
  sending: boolean;
}

/**
 * Writes what a service must log before it answers (a decision, a prediction) to Kafka with acks
 * from all in-sync replicas, through the caller's (idempotent) producer. `append` batches: the
 * messages appended to a topic while a send to it is in flight go out together in the next send,
 * and each caller's promise settles when the send holding its messages does. A failed write
 * rejects with an `io` `VbstreamError` naming the topic and the broker's error (retriable unless
 * the client says no retry can cure it), and {@link brokerProblem} says what is wrong while writes
 * fail or hang.
 */
export class BatchingWriter {
  private readonly queues = new Map<string, Queue>();
  /** Start times of the writes in flight. */
  private readonly writes = new Set<{ readonly since: number }>();
  /** Why the last write failed, until a write or a probe of the brokers succeeds. */
  private failure: string | undefined;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private stopped = false;
  private readonly unresponsiveAfterMs: number;

  constructor(private readonly producer: ProducerPort, private readonly admin: AdminPort, private readonly options: BatchingWriterOptions) {
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
    if (queue === undefined) this.queues.set(topic, (queue = { messages: [], waiting: [], sending: false }));
    const pending = queue;
    return new Promise<void>((resolve, reject) => {
      for (const message of messages) pending.messages.push(message);
      pending.waiting.push((error) => (error === undefined ? resolve() : reject(error)));
      void this.flush(topic, noun, pending);
    });
  }

  /** Writes `messages` to `topic` now (`what` names them in errors: `the reward`) and resolves once they are durable. */
  async write(topic: string, what: string, messages: PortOutgoingMessage[]): Promise<void> {
    const write = { since: Date.now() };
    this.writes.add(write);
    try {
      await this.producer.send({ topic, messages, acks: -1 });
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
    const busy = (): boolean => [...this.queues.values()].some((queue) => queue.sending || queue.messages.length > 0);
    while (busy()) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Stops probing the brokers (the producer and admin are the caller's to disconnect). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probe);
  }

  private async flush(topic: string, noun: string, queue: Queue): Promise<void> {
    if (queue.sending || queue.messages.length === 0) return;
    queue.sending = true;
    const { messages, waiting } = queue;
    queue.messages = [];
    queue.waiting = [];
    try {
      await this.write(topic, messages.length === 1 ? `the ${noun}` : `${messages.length} ${noun}s`, messages);
      for (const done of waiting) done();
    } catch (error) {
      for (const done of waiting) done(error);
    } finally {
      queue.sending = false;
      void this.flush(topic, noun, queue);
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
