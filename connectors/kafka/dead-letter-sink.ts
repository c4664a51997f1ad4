import { DEAD_LETTER_REASONS, type DeadLetterReason } from './dead-letter-reason.js';
import type { PortOutgoingMessage, ProducerPort } from './kafka-port.js';

/** A record that could not be used, with where it came from and why. */
export interface DeadLetter {
  readonly reason: DeadLetterReason;
  readonly detail: string;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
}

/** Header names a dead letter carries (values are UTF-8 strings). */
export const DEAD_LETTER_HEADERS = {
  reason: 'dlq-reason',
  detail: 'dlq-detail',
  topic: 'dlq-source-topic',
  partition: 'dlq-source-partition',
  offset: 'dlq-source-offset',
} as const;

/**
 * Sends dead letters to `<source topic>.dlq` (the original key and value, the reason, detail,
 * source partition and offset as headers) and counts them by reason. Letters are buffered by
 * `add` and written by `flush` with acks from all in-sync replicas; the learner flushes before it
 * commits offsets, so a dead letter is durable before its record counts as consumed (a crash in
 * between may send it twice: the DLQ is at-least-once).
 */
export class DeadLetterSink {
  private pending: DeadLetter[] = [];
  private readonly counts = new Map<DeadLetterReason, number>(DEAD_LETTER_REASONS.map((r) => [r, 0]));

  constructor(private readonly producer: ProducerPort, private readonly topicOf: (source: string) => string = (source) => `${source}.dlq`) {}

  /** Queues a letter and counts it. */
  add(letter: DeadLetter): void {
    this.pending.push(letter);
    this.counts.set(letter.reason, (this.counts.get(letter.reason) ?? 0) + 1);
  }

  /** Letters queued and not yet flushed. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Writes every queued letter; on failure they stay queued and the error propagates. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const letters = this.pending;
    const byTopic = new Map<string, PortOutgoingMessage[]>();
    for (const letter of letters) {
      const topic = this.topicOf(letter.topic);
      let messages = byTopic.get(topic);
      if (messages === undefined) byTopic.set(topic, messages = []);
      messages.push({
        key: letter.key,
        value: letter.value,
        headers: {
          [DEAD_LETTER_HEADERS.reason]: letter.reason,
          [DEAD_LETTER_HEADERS.detail]: letter.detail,
          [DEAD_LETTER_HEADERS.topic]: letter.topic,
          [DEAD_LETTER_HEADERS.partition]: String(letter.partition),
          [DEAD_LETTER_HEADERS.offset]: letter.offset,
        },
      });
    }
    for (const [topic, messages] of byTopic) await this.producer.send({ topic, messages, acks: -1 });
    this.pending = this.pending.slice(letters.length);
  }

  /** Dead letters counted so far, by reason (every reason present, zero when none). */
  countsByReason(): Record<DeadLetterReason, number> {
    return Object.fromEntries(this.counts) as Record<DeadLetterReason, number>;
  }
}
