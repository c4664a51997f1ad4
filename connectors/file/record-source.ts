import type { Observable } from 'rxjs';
import type { Pausable } from '../../operators/backpressure-valve.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';

/**
 * A stream of labelled records that can be throttled (`pause`/`resume`, for the backpressure
 * valve) and stopped (`stop`: the stream completes after what was already read, as on Ctrl-C).
 * `records$` is meant for one subscriber.
 */
export interface RecordSource extends Pausable {
  /** Source name in messages (a path, `stdin`, `synthetic`). */
  readonly name: string;
  /**
   * What positions are keyed by: the content identity (`file:<hash of the first 64 KiB>`, the
   * synthetic stream's settings), so a resume applies an offset only to the data it counted.
   */
  readonly identity: string;
  /** Feature names, in record order (`dim` = their count). */
  readonly features: readonly string[];
  readonly records$: Observable<LabelledRecord>;
  stop(): void;
}
