import { InputError } from '../../src/core/input-error.js';
import type { ErrorLocation } from '../../src/core/vbstream-error.js';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * One CSV cell as a finite decimal number (no empty cell, hex, NaN or Infinity); otherwise an
 * {@link InputError} at `location` (source, row, column) with the cell as its value and the file
 * line in the reason.
 */
export function parseNumericCell(cell: string, location: ErrorLocation, line: number): number {
  if (cell === '') throw new InputError(`empty cell (line ${line})`, location);
  if (!NUMBER.test(cell)) {
    const reason = /^[+-]?(nan|inf(inity)?)$/i.test(cell) ? 'value is not finite' : 'not a number';
    throw new InputError(`${reason} (line ${line})`, { ...location, value: cell });
  }
  const value = Number(cell);
  if (!Number.isFinite(value)) throw new InputError(`value is not finite (line ${line})`, { ...location, value: cell });
  return value;
}
