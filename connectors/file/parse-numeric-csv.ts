import { InputError } from '../../src/core/input-error.js';
import { parseNumericCell } from './parse-numeric-cell.js';
import { splitCsvLine } from './split-csv-line.js';

/** A numeric table read from CSV: row-major values, column names from the header. */
export interface NumericTable {
  readonly columns: readonly string[];
  readonly values: Float64Array;
  readonly rows: number;
}

/**
 * Parses CSV text with a header line into a numeric table. Every data cell must be a finite decimal
 * number (no empty cells, hex, NaN or Infinity); rows must be as wide as the header; blank lines are
 * skipped. Errors are {@link InputError}s naming the source, the data row (1 = the first line after
 * the header) and the column name, so a caller can report exactly where the file is wrong.
 */
export function parseNumericCsv(text: string, source: string): NumericTable {
  const lines = text.split(/\r\n|\n|\r/);
  let headerIndex = 0;
  while (headerIndex < lines.length && lines[headerIndex].trim() === '') headerIndex++;
  if (headerIndex === lines.length) throw new InputError('file is empty (no header line)', { source });
  const columns = splitCsvLine(lines[headerIndex].replace(/^\uFEFF/, ''), source, headerIndex + 1);
  columns.forEach((name, j) => {
    if (name === '') throw new InputError('header has an empty column name', { source, field: 'header', column: j + 1 });
    if (columns.indexOf(name) !== j) throw new InputError('header repeats a column name', { source, field: 'header', column: name });
  });
  const width = columns.length;
  const values: number[] = [];
  let rows = 0;
  for (let i = headerIndex + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    rows++;
    const cells = splitCsvLine(lines[i], source, i + 1);
    if (cells.length !== width) {
      throw new InputError(`row has ${cells.length} cells but the header has ${width} (line ${i + 1})`, { source, row: rows });
    }
    for (let j = 0; j < width; j++) values.push(parseNumericCell(cells[j], { source, row: rows, column: columns[j] }, i + 1));
  }
  if (rows === 0) throw new InputError('file has a header but no data rows', { source });
  return { columns, values: Float64Array.from(values), rows };
}
