import { readFile } from 'node:fs/promises';
import { InputError } from '../../src/core/input-error.js';
import { parseNumericCsv } from './parse-numeric-csv.js';

/** A labelled dataset read from CSV: features row-major (n×d) and labels, with the feature names. */
export interface LabelledData {
  readonly source: string;
  readonly features: readonly string[];
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly n: number;
  readonly d: number;
}

/**
 * Reads a CSV file whose columns are the features plus a label column (`label`, default "y").
 * With `expectFeatures`, the file must have exactly those feature columns in that order (a test
 * file of another width is refused). `requireLabel: false` accepts a file without the label column
 * (its y is then all NaN). Errors name the file, row and column.
 */
export async function readLabelledCsv(path: string, options: { label?: string; expectFeatures?: readonly string[]; requireLabel?: boolean } = {}): Promise<LabelledData> {
  const labelName = options.label ?? 'y';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read file: ${(cause as Error).message}`, { source: path }, { cause });
  }
  const table = parseNumericCsv(text, path);
  const labelIndex = table.columns.indexOf(labelName);
  if (labelIndex < 0 && options.requireLabel !== false) {
    throw new InputError(`no label column "${labelName}" (columns: ${table.columns.join(', ')}); choose one with --label`, { source: path, field: 'header', column: labelName });
  }
  const features = table.columns.filter((_, j) => j !== labelIndex);
  if (features.length === 0) throw new InputError('no feature columns besides the label', { source: path, field: 'header' });
  if (options.expectFeatures !== undefined) {
    const expected = options.expectFeatures;
    if (features.length !== expected.length) {
      throw new InputError(`has ${features.length} feature columns but the model was fitted on ${expected.length} (${expected.join(', ')})`, { source: path, field: 'header' });
    }
    const mismatch = features.findIndex((name, j) => name !== expected[j]);
    if (mismatch >= 0) throw new InputError(`feature column ${mismatch + 1} is "${features[mismatch]}", expected "${expected[mismatch]}"`, { source: path, field: 'header', column: mismatch + 1 });
  }
  const n = table.rows;
  const d = features.length;
  const width = table.columns.length;
  const x = new Float64Array(n * d);
  const y = new Float64Array(n).fill(Number.NaN);
  for (let r = 0; r < n; r++) {
    let k = 0;
    for (let j = 0; j < width; j++) {
      const value = table.values[r * width + j];
      if (j === labelIndex) y[r] = value;
      else x[r * d + k++] = value;
    }
  }
  return { source: path, features, x, y, n, d };
}
