import { optionChecks } from '../../src/core/option-checks.js';

/** One window's dead letters, as {@link DeadLetterShare.observe} reports them when the alarm changes. */
export interface DeadLetterWindow {
  /** Whether the share is over the threshold (raised) or under it. */
  readonly raised: boolean;
  /** Whether the alarm changed with this window (raised, or cleared). */
  readonly changed: boolean;
  /** Dead letters ÷ records in the window. */
  readonly share: number;
  readonly records: number;
  readonly deadLetters: number;
  /** Dead letters of the window by reason, most frequent first. */
  readonly reasons: readonly { readonly reason: string; readonly count: number }[];
  /** The window's first dead letter: its reason, the detail of that reason and its offset. */
  readonly example?: { readonly reason: string; readonly detail: string; readonly offset: string };
}

/** Options of {@link DeadLetterShare}. */
export interface DeadLetterShareOptions {
  /** The share of a window's records that raises the alarm, in (0, 1]; default 0.1. */
  readonly share?: number;
  /** Records per window; default 1,000. */
  readonly window?: number;
}

/**
 * The dead-letter share of one partition, over consecutive windows of `window` records: when a
 * window ends with at least `share` of its records dead-lettered the alarm is raised, when one ends
 * under it the alarm is cleared; {@link observe} returns each window that ends, saying whether the
 * alarm changed, so a caller logs one line per change. A pipeline whose every record goes to the dead letters
 * (a schema that names fields the producer does not write) says so instead of looking healthy.
 */
export class DeadLetterShare {
  readonly threshold: number;
  readonly window: number;
  /** Whether the last window ended over the threshold. */
  raised = false;
  /** The share of the last window that ended. */
  lastShare = 0;
  private records = 0;
  private deadLetters = 0;
  private readonly reasons = new Map<string, number>();
  private example: DeadLetterWindow['example'];

  constructor(options: DeadLetterShareOptions = {}) {
    this.threshold = optionChecks.inRange('deadLetterAlarm.share', options.share, 0.1, 0, 1, true);
    this.window = optionChecks.positiveInteger('deadLetterAlarm.window', options.window, 1_000);
  }

  /** A dead letter of this partition (its reason and detail; the window's first is its example). */
  letter(reason: string, detail: string, offset: string): void {
    this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + 1);
    this.example ??= { reason, detail, offset };
  }

  /** `records` more records passed, `deadLetters` of them dead-lettered; returns the window when one ended. */
  observe(records: number, deadLetters: number): DeadLetterWindow | undefined {
    this.records += records;
    this.deadLetters += deadLetters;
    if (this.records < this.window) return undefined;
    const share = this.deadLetters / this.records;
    const raised = share >= this.threshold;
    const window: DeadLetterWindow = {
      raised, changed: raised !== this.raised, share, records: this.records, deadLetters: this.deadLetters,
      reasons: [...this.reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count), example: this.example,
    };
    this.raised = raised;
    this.lastShare = share;
    this.records = 0;
    this.deadLetters = 0;
    this.reasons.clear();
    this.example = undefined;
    return window;
  }
}
