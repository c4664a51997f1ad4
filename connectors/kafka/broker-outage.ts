import { VbstreamError } from '../../src/core/vbstream-error.js';
import { isRetriableKafkaFailure } from './is-retriable-kafka-failure.js';

/** A change of the brokers' reachability, as a {@link BrokerOutage} reports it. */
export type BrokerReachability =
  | { readonly type: 'brokers-unreachable'; readonly what: string; readonly reason: string; readonly limitMs: number }
  | { readonly type: 'brokers-reachable'; readonly outageMs: number };

/** Options of {@link BrokerOutage}. */
export interface BrokerOutageOptions {
  /** Longest outage ridden out before {@link BrokerOutageOptions.expired} is called, ms. */
  readonly maxOutageMs: number;
  /** Each change of state: once when the first operation fails, once when operations have succeeded again for `settleMs`. */
  readonly changed?: (change: BrokerReachability) => void;
  /** The outage lasted longer than `maxOutageMs` (the service must stop); called once. */
  readonly expired: (error: VbstreamError) => void;
  /** Name of the limit's setting, for the messages (e.g. `source.maxOutageMs`). */
  readonly setting?: string;
  /** How long operations must go without a failure after the first success for the outage to end, ms; default {@link SETTLE_MS}. */
  readonly settleMs?: number;
}

/** First wait between attempts of {@link BrokerOutage.retry}, ms; doubled after each failure up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5_000;
/**
 * Default settle period, ms: a broker that has just come back answers some requests before it has
 * elected every partition's leader and loaded its coordinators, so failures in the first seconds are
 * the outage's tail, not a new one.
 */
const SETTLE_MS = 3_000;

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * Rides out a Kafka outage: operations report their failures ({@link failed}) and successes
 * ({@link succeeded}); the first retriable failure starts an outage (reported once through
 * `changed`); it ends (reported once) when `settleMs` have passed since a success with no failure
 * meanwhile, and it is {@link down} until then. An outage longer than `maxOutageMs` calls `expired`
 * with one clear, non-retriable error; the limit does not run out while operations succeed in the
 * settle period, and a failure in it past the limit expires the outage at once. {@link retry} runs an operation until it
 * succeeds, with exponential backoff, for as long as the outage is allowed to last.
 */
export class BrokerOutage {
  private since: number | undefined;
  /** When the settle period began (the first success since the last failure); undefined: not settling. */
  private answeredAt: number | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  private lastReason = '';
  private timer: NodeJS.Timeout | undefined;
  private over: VbstreamError | undefined;
  private closed = false;
  private readonly wakers = new Set<() => void>();
  /** How many outages have ended (tells {@link retry} whether one ended while an attempt was under way). */
  private ends = 0;

  constructor(private readonly options: BrokerOutageOptions) {}

  /** Whether an outage is under way (its settle period included). */
  get down(): boolean {
    return this.since !== undefined;
  }

  /** The error the service stopped with once the outage outlasted its limit. */
  get expiredError(): VbstreamError | undefined {
    return this.over;
  }

  /** An operation (`what`) failed with a retriable error: the outage starts now if it has not. */
  failed(what: string, error: unknown): void {
    this.lastReason = `${what}: ${reasonOf(error)}`;
    if (this.closed) return;
    const { maxOutageMs } = this.options;
    if (this.since === undefined) {
      this.since = Date.now();
      this.options.changed?.({ type: 'brokers-unreachable', what, reason: reasonOf(error), limitMs: maxOutageMs });
      this.timer = setTimeout(() => this.expire(), maxOutageMs);
    } else if (this.answeredAt !== undefined) {
      this.answeredAt = undefined;
      clearTimeout(this.settleTimer);
      this.timer = setTimeout(() => this.expire(), Math.max(0, this.since + maxOutageMs - Date.now()));
    }
  }

  /** An operation succeeded: the outage, if any, ends once `settleMs` pass with no failure. */
  succeeded(): void {
    if (this.since === undefined || this.answeredAt !== undefined || this.closed) return;
    this.answeredAt = Date.now();
    clearTimeout(this.timer);
    this.settleTimer = setTimeout(() => this.settle(), this.options.settleMs ?? SETTLE_MS);
  }

  /**
   * Runs `attempt` until it succeeds: a retriable failure is reported and tried again after a
   * backoff (250 ms, doubling to 5 s); a non-retriable one rejects at once; once the outage has
   * outlasted its limit, or after {@link close}, rejects with the reason. An attempt begun during an
   * outage that another operation's success ended meanwhile (e.g. a write still waiting on a leader
   * election when a fetch got through) fails as that outage's tail: it is tried again, not reported
   * as a new outage; an attempt begun after the end that fails is one.
   */
  async retry<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    for (let failures = 0; ; failures++) {
      if (this.over !== undefined) throw this.over;
      const endsBefore = this.ends;
      const duringOutage = this.since !== undefined;
      try {
        const result = await attempt();
        this.succeeded();
        return result;
      } catch (error) {
        if (!isRetriableKafkaFailure(error)) throw error;
        if (duringOutage && this.ends !== endsBefore && this.since === undefined) this.lastReason = `${what}: ${reasonOf(error)}`;
        else this.failed(what, error);
        if (this.closed) throw error;
        await this.pause(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** failures));
        if (this.closed) throw error;
      }
    }
  }

  /** Stops timing the outage and ends every {@link retry} in its backoff (each rejects with its last error). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.settleTimer);
    for (const wake of this.wakers) wake();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.add(wake);
    });
  }

  private settle(): void {
    const outageMs = (this.answeredAt as number) - (this.since as number);
    this.since = undefined;
    this.answeredAt = undefined;
    this.ends++;
    this.options.changed?.({ type: 'brokers-reachable', outageMs });
  }

  private expire(): void {
    const seconds = Math.round(this.options.maxOutageMs / 1000);
    this.over = new VbstreamError('io', `Kafka has been unreachable for ${seconds} s, as long as ${this.options.setting ?? 'maxOutageMs'} allows; last error: ${this.lastReason}`, {}, false);
    for (const wake of this.wakers) wake();
    this.options.expired(this.over);
  }
}
