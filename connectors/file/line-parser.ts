/** Turns the lines of one text format into record fields (see {@link LineRecordSource}). */
export interface LineParser {
  /** Reads the header line (the first non-blank line) where the format has one; throwing errors the stream. */
  header?(text: string, line: number): void;
  /** Parses data row `row` (1-based) on file line `line`; throws a typed error naming row, column and value. */
  parse(text: string, line: number, row: number): { x: Float64Array; y: number; weight?: number };
}
