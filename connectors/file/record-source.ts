import type { Observable } from 'rxjs';
import type { Pausable } from '../../operators/backpressure-valve.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';

/**
 * A stream of labelled records that can be throttled (`pause`/`resume`, for the backpressure
 * valve) and stopped (`stop`: the stream completes after what was already read, as on Ctrl-C).
 * `records$` is meant for one subscriber.
 */
export interface RecordSource extends Pausable {
  /** Source name in positions and error messages (a path, `stdin`, `synthetic`). */
  readonly name: string;
  /** Feature names, in record order (`dim` = their count). */
  readonly features: readonly string[];
  readonly records$: Observable<LabelledRecord>;
  stop(): void;
}
