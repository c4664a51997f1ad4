import { Observable } from 'rxjs';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import { ConfigError } from '../../src/core/config-error.js';
import { defaultFeatureName } from '../../src/core/default-feature-name.js';
import { optionChecks } from '../../src/core/option-checks.js';
import type { RecordSource } from './record-source.js';
import { SyntheticGenerator, type SyntheticOptions } from './synthetic-generator.js';

/** Options of {@link SyntheticSource}. */
export interface SyntheticSourceOptions extends SyntheticOptions {
  /** Records to emit (default unbounded). */
  readonly records?: number;
  /** Records emitted per event-loop turn (default 512). */
  readonly chunk?: number;
  /** Skip this many records first (their generation is replayed, so the stream continues exactly). */
  readonly startOffset?: number;
  /** Records per second (default: as fast as the subscriber takes them). */
  readonly rate?: number;
}

/** How long a rate-limited source waits when no record is due yet, ms. */
const RATE_TICK_MS = 10;

/**
 * A seeded synthetic stream ({@link SyntheticGenerator}) as a {@link RecordSource}: it emits
 * `chunk` records per event-loop turn (`setImmediate`) — with `rate`, only the records due by the
 * clock, waking every 10 ms — stops emitting while paused, and completes
 * after `records` records or on `stop()`. Positions count records, so a restart with
 * `startOffset` = the snapshot's position continues the same stream.
 */
export class SyntheticSource implements RecordSource {
  readonly name = 'synthetic';
  /** `synthetic:<kind>:d<dim>:seed<seed>` (with the drift settings): the stream a position counts in. */
  readonly identity: string;
  readonly features: readonly string[];
  readonly generator: SyntheticGenerator;
  private paused = false;
  private stopped = false;
  private wake: (() => void) | undefined;

  constructor(readonly options: SyntheticSourceOptions) {
    this.generator = new SyntheticGenerator(options);
    const drift = options.drift === undefined ? '' : `:drift${options.drift.scale}/${options.drift.every}`;
    this.identity = `synthetic:${options.kind}:d${options.dim}:seed${options.seed}${drift}`;
    // column 0 of a linear stream is the constant 1; every other column is named by the one default rule
    this.features = Array.from({ length: options.dim }, (_, j) => (j === 0 && options.kind !== 'gp' ? 'bias' : defaultFeatureName(j)));
    if (options.records !== undefined && options.records !== Infinity) optionChecks.positiveInteger('records', options.records, Number.NaN);
    optionChecks.positiveInteger('chunk', options.chunk, 512);
    if (options.rate !== undefined) optionChecks.positive('rate', options.rate, Number.NaN);
    const start = options.startOffset ?? 0;
    if (!Number.isInteger(start) || start < 0) throw new ConfigError('startOffset must be a non-negative integer', { field: 'startOffset', value: start });
  }

  readonly records$ = new Observable<LabelledRecord>((subscriber) => {
    const { dim, records = Infinity, chunk = 512, startOffset = 0, rate = Infinity } = this.options;
    const scratch = new Float64Array(dim);
    while (this.generator.generated < startOffset) this.generator.next(scratch);
    let handle: { cancel(): void } | undefined;
    const later = (wait: number): void => {
      if (wait === 0) {
        const immediate = setImmediate(step);
        handle = { cancel: () => clearImmediate(immediate) };
      } else {
        const timeout = setTimeout(step, wait);
        handle = { cancel: () => clearTimeout(timeout) };
      }
    };
    // With a rate, the clock restarts after each pause, so the records not emitted then are not made up in a burst.
    let clock = { at: performance.now(), emitted: 0 };
    const due = (): number => (rate === Infinity ? chunk : Math.min(chunk, Math.floor(((performance.now() - clock.at) * rate) / 1000) - clock.emitted));
    const step = (): void => {
      handle = undefined;
      const allowed = due();
      for (let k = 0; k < allowed && !this.paused && !this.stopped && this.generator.generated < records; k++) {
        const x = new Float64Array(dim);
        const y = this.generator.next(x);
        const row = this.generator.generated;
        clock.emitted++;
        subscriber.next({ x, y, row, position: { source: this.identity, offset: row } });
      }
      if (this.stopped || this.generator.generated >= records) subscriber.complete();
      else if (!this.paused) later(due() > 0 ? 0 : RATE_TICK_MS);
    };
    this.wake = () => {
      if (handle === undefined && !subscriber.closed) {
        clock = { at: performance.now(), emitted: 0 };
        later(0);
      }
    };
    later(0);
    return () => {
      handle?.cancel();
      this.wake = undefined;
    };
  });

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.wake?.();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }
}
