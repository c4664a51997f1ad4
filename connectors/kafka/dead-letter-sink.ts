import { createHash } from 'node:crypto';
import { optionChecks } from '../../src/core/option-checks.js';
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
  /** Present when the value was cut to `maxValueBytes`: the original length in bytes. */
  truncated: 'dlq-truncated-from',
  /** With `truncated`: the SHA-256 (hex) of the whole original value. */
  sha256: 'dlq-original-sha256',
} as const;

/** Options of {@link DeadLetterSink}. */
export interface DeadLetterSinkOptions {
  /** The dead-letter topic of a source topic; default `<source>.dlq`. */
  readonly topicOf?: (source: string) => string;
  /**
   * Longest value kept whole, bytes (default 262,144): a longer one is cut to this length and its
   * letter says so (original length and hash in headers; the source topic, partition and offset
   * point at the whole record), so a letter never exceeds the broker's message limit.
   */
  readonly maxValueBytes?: number;
  /** Largest send (values, keys and headers), bytes (default 524,288): letters are sent in groups under it, under the broker's default 1 MB batch limit. */
  readonly maxSendBytes?: number;
}

/**
 * Sends dead letters to `<source topic>.dlq` (the original key and value, the reason, detail,
 * source partition and offset as headers) and counts them by reason. Letters are buffered by `add`
 * and written by `flush` with acks from all in-sync replicas, in sends below the broker's limits;
 * letters added while a flush is sending wait for the next flush. The learner flushes before it
 * commits offsets, so a dead letter is durable before its record counts as consumed (a crash in
 * between may send it twice: the DLQ is at-least-once). A failed send leaves every unsent letter
 * queued and throws.
 */
export class DeadLetterSink {
  private pending: DeadLetter[] = [];
  private readonly counts = new Map<DeadLetterReason, number>(DEAD_LETTER_REASONS.map((r) => [r, 0]));
  private readonly topicOf: (source: string) => string;
  private readonly maxValueBytes: number;
  private readonly maxSendBytes: number;

  constructor(private readonly producer: ProducerPort, options: DeadLetterSinkOptions = {}) {
    this.topicOf = options.topicOf ?? ((source) => `${source}.dlq`);
    this.maxValueBytes = optionChecks.positiveInteger('maxValueBytes', options.maxValueBytes, 262_144);
    this.maxSendBytes = optionChecks.positiveInteger('maxSendBytes', options.maxSendBytes, 524_288);
  }

  /** Queues a letter and counts it. */
  add(letter: DeadLetter): void {
    this.pending.push(letter);
    this.counts.set(letter.reason, (this.counts.get(letter.reason) ?? 0) + 1);
  }

  /** Letters queued and not yet flushed. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Writes every letter queued when it is called; on failure the unsent ones are queued again (ahead of newer ones) and the error propagates. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const letters = this.pending;
    this.pending = [];
    let sent = 0;
    try {
      const groups = new Map<string, { messages: PortOutgoingMessage[]; bytes: number; count: number }>();
      const send = async (topic: string): Promise<void> => {
        const group = groups.get(topic);
        if (group === undefined || group.messages.length === 0) return;
        await this.producer.send({ topic, messages: group.messages, acks: -1 });
        sent += group.count;
        groups.delete(topic);
      };
      for (const letter of letters) {
        const topic = this.topicOf(letter.topic);
        const { message, bytes } = this.message(letter);
        const group = groups.get(topic);
        if (group !== undefined && group.bytes + bytes > this.maxSendBytes) await send(topic);
        const current = groups.get(topic) ?? { messages: [], bytes: 0, count: 0 };
        current.messages.push(message);
        current.bytes += bytes;
        current.count += 1;
        groups.set(topic, current);
      }
      for (const topic of [...groups.keys()]) await send(topic);
    } catch (error) {
      this.pending = [...letters.slice(sent), ...this.pending];
      throw error;
    }
  }

  /** Dead letters counted so far, by reason (every reason present, zero when none). */
  countsByReason(): Record<DeadLetterReason, number> {
    return Object.fromEntries(this.counts) as Record<DeadLetterReason, number>;
  }

  private message(letter: DeadLetter): { message: PortOutgoingMessage; bytes: number } {
    const headers: { [key: string]: string } = {
      [DEAD_LETTER_HEADERS.reason]: letter.reason,
      [DEAD_LETTER_HEADERS.detail]: letter.detail.length > 1000 ? `${letter.detail.slice(0, 997)}...` : letter.detail,
      [DEAD_LETTER_HEADERS.topic]: letter.topic,
      [DEAD_LETTER_HEADERS.partition]: String(letter.partition),
      [DEAD_LETTER_HEADERS.offset]: letter.offset,
    };
    let value = letter.value;
    if (value !== null && value.length > this.maxValueBytes) {
      headers[DEAD_LETTER_HEADERS.truncated] = String(value.length);
      headers[DEAD_LETTER_HEADERS.sha256] = createHash('sha256').update(value).digest('hex');
      value = value.subarray(0, this.maxValueBytes);
    }
    const key = letter.key !== null && letter.key.length > this.maxValueBytes ? letter.key.subarray(0, this.maxValueBytes) : letter.key;
    const headerBytes = Object.entries(headers).reduce((sum, [k, v]) => sum + k.length + Buffer.byteLength(v), 0);
    return { message: { key, value, headers }, bytes: (value?.length ?? 0) + (key?.length ?? 0) + headerBytes + 64 };
  }
}
