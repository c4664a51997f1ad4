import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ConfigError } from '../../src/core/config-error.js';
import { InputError } from '../../src/core/input-error.js';
import type { BadRecordSink } from '../../operators/bad-record.js';
import { fileFingerprint } from './file-fingerprint.js';
import { LineRecordSource } from './line-record-source.js';
import { LineSource } from './line-source.js';
import { parseNumericCell } from './parse-numeric-cell.js';
import { readFirstLine } from './read-first-line.js';
import type { RecordSchema } from './record-schema.js';
import { splitCsvLine } from './split-csv-line.js';

/** Options of {@link openCsvSource}: a file `path`, or stdin (then `schema.features` is required). */
export interface CsvSourceOptions {
  readonly path?: string;
  readonly schema: RecordSchema;
  readonly startOffset?: number;
  /** The file's content identity, when the caller has computed it (else it is computed here). */
  readonly identity?: string;
  readonly badRecords?: BadRecordSink;
  /** The stream to read when there is no path (default `process.stdin`). */
  readonly stdin?: () => Readable;
}

function defaultFeatures(columns: readonly string[], schema: RecordSchema): string[] {
  return columns.filter((c) => c !== schema.label && c !== schema.weight);
}

/**
 * A CSV file or stdin with a header line as a {@link RecordSource}: the header names the columns,
 * `schema` says which are the features, the label and the weight. A file's header is read up front
 * so the feature list (and the model's dimension) is known before streaming. Cells must be finite
 * decimal numbers; a bad row goes to `badRecords` naming the source, row, column and value; a
 * header without a needed column errors the stream.
 */
export async function openCsvSource(options: CsvSourceOptions): Promise<LineRecordSource> {
  const { path, schema } = options;
  const name = path ?? 'stdin';
  const header = path === undefined ? undefined : await readFirstLine(path);
  if (path !== undefined && header === undefined) throw new InputError('file is empty (no header line)', { source: path });
  const features = schema.features ?? (header === undefined ? undefined : defaultFeatures(splitCsvLine(header, name, 1), schema));
  if (features === undefined) throw new ConfigError('reading CSV from stdin needs schema.features', { field: 'schema.features' });
  if (features.length === 0) throw new InputError('no feature columns besides the label', { source: name, field: 'header' });
  const wanted = features;
  let width = 0;
  let featureIndex: number[] = [];
  let labelIndex = -1;
  let weightIndex = -1;
  const parser = {
    header(text: string, line: number): void {
      const columns = splitCsvLine(text.replace(/^\uFEFF/, ''), name, line);
      const find = (column: string): number => {
        const index = columns.indexOf(column);
        if (index < 0) throw new InputError(`header has no column "${column}" (columns: ${columns.join(', ')})`, { source: name, field: 'header', column });
        return index;
      };
      width = columns.length;
      featureIndex = wanted.map(find);
      labelIndex = find(schema.label);
      weightIndex = schema.weight === undefined ? -1 : find(schema.weight);
    },
    parse(text: string, line: number, row: number) {
      const cells = splitCsvLine(text, name, line);
      if (cells.length !== width) throw new InputError(`row has ${cells.length} cells but the header has ${width} (line ${line})`, { source: name, row });
      const x = new Float64Array(featureIndex.length);
      featureIndex.forEach((index, j) => { x[j] = parseNumericCell(cells[index], { source: name, row, column: wanted[j] }, line); });
      const y = parseNumericCell(cells[labelIndex], { source: name, row, column: schema.label }, line);
      if (weightIndex < 0) return { x, y };
      return { x, y, weight: parseNumericCell(cells[weightIndex], { source: name, row, column: schema.weight }, line) };
    },
  };
  const open = path === undefined ? (options.stdin ?? (() => process.stdin)) : () => createReadStream(path);
  const identity = path === undefined ? undefined : options.identity ?? await fileFingerprint(path);
  return new LineRecordSource(new LineSource(open, name), parser, wanted, { startOffset: options.startOffset, badRecords: options.badRecords, identity });
}
