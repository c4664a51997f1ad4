/** Where a source stands after a record: the offset to resume from, per source (a file, a Kafka partition). */
export interface SourcePosition {
  /** Source name, e.g. a file path, `stdin`, `synthetic` or `topic/partition`. */
  readonly source: string;
  /** Offset to resume from once this record has been applied (records or lines consumed). */
  readonly offset: number;
}

/**
 * One labelled record on a stream: its features (length = the model's `dim`), its label (NaN when
 * the record is only to be scored), an optional likelihood weight, its 1-based row in the source
 * (for error messages) and where the source stands after it.
 */
export interface LabelledRecord {
  readonly x: Float64Array;
  readonly y: number;
  readonly weight?: number;
  readonly row: number;
  readonly position?: SourcePosition;
}
