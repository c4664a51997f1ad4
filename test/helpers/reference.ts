import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNumericCsv } from '../../connectors/file/parse-numeric-csv.js';

/** The repository root (this file is test/helpers/reference.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Absolute path of a golden reference file, read in place from ../shared/reference/<family>/. */
export function referencePath(family: string, file: string): string {
  return resolve(repoRoot, '..', 'shared', 'reference', family, file);
}

/** Parsed JSON of a golden reference file. */
export function readReferenceJson<T = any>(family: string, file: string): T {
  return JSON.parse(readFileSync(referencePath(family, file), 'utf8')) as T;
}

/** A reference CSV split into X (row-major), y and the feature names (label column `y`). */
export function readReferenceCsv(family: string, file: string, label = 'y'): { x: Float64Array; y: Float64Array; n: number; d: number; features: string[] } {
  const table = parseNumericCsv(readFileSync(referencePath(family, file), 'utf8'), file);
  const labelIndex = table.columns.indexOf(label);
  const width = table.columns.length;
  const d = width - (labelIndex >= 0 ? 1 : 0);
  const x = new Float64Array(table.rows * d);
  const y = new Float64Array(table.rows);
  for (let r = 0; r < table.rows; r++) {
    let k = 0;
    for (let j = 0; j < width; j++) {
      if (j === labelIndex) y[r] = table.values[r * width + j];
      else x[r * d + k++] = table.values[r * width + j];
    }
  }
  return { x, y, n: table.rows, d, features: table.columns.filter((_, j) => j !== labelIndex) };
}
