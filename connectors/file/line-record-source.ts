import { Observable } from 'rxjs';
import type { BadRecordSink } from '../../operators/bad-record.js';
import type { LabelledRecord } from '../../operators/labelled-record.js';
import type { LineParser } from './line-parser.js';
import type { LineSource } from './line-source.js';
import type { RecordSource } from './record-source.js';

/**
 * Records parsed from the lines of a text source. Blank lines are skipped; data rows are numbered
 * from 1 and each record's position offset is its row, so resuming at offset k skips the first k
 * rows. A row that does not parse goes to `badRecords` (with the raw line) and the stream carries on.
 */
export class LineRecordSource implements RecordSource {
  constructor(
    private readonly lines: LineSource,
    private readonly parser: LineParser,
    readonly features: readonly string[],
    private readonly options: { readonly startOffset?: number; readonly badRecords?: BadRecordSink; readonly identity?: string } = {},
  ) {}

  /** The content identity given (a file's fingerprint), else the name (stdin). */
  get identity(): string {
    return this.options.identity ?? this.lines.name;
  }

  get name(): string {
    return this.lines.name;
  }

  readonly records$ = new Observable<LabelledRecord>((subscriber) => {
    const skip = this.options.startOffset ?? 0;
    let headerRead = this.parser.header === undefined;
    let row = 0;
    return this.lines.lines$.subscribe({
      next: ({ text, line }) => {
        if (text.trim() === '') return;
        if (!headerRead) {
          headerRead = true;
          try {
            this.parser.header!(text, line);
          } catch (error) {
            subscriber.error(error);
          }
          return;
        }
        row++;
        if (row <= skip) return;
        try {
          const fields = this.parser.parse(text, line, row);
          subscriber.next({ ...fields, row, position: { source: this.identity, offset: row } });
        } catch (error) {
          this.options.badRecords?.next({ record: { row, line, text }, reason: (error as Error).message, error });
        }
      },
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });

  pause(): void {
    this.lines.pause();
  }

  resume(): void {
    this.lines.resume();
  }

  stop(): void {
    this.lines.stop();
  }
}
