import { InputError } from '../../src/core/input-error.js';

/**
 * Splits one CSV line into trimmed cells (RFC 4180 quotes: "a,b" and "" inside quotes); an
 * unterminated quote throws {@link InputError} naming the source and line.
 */
export function splitCsvLine(line: string, source: string, lineNumber: number): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cell += '"'; i++; }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell.trim() === '') { quoted = true; cell = ''; }
    else if (ch === ',') { cells.push(cell.trim()); cell = ''; }
    else cell += ch;
  }
  if (quoted) throw new InputError(`unterminated quoted field on line ${lineNumber}`, { source, row: lineNumber - 1 });
  cells.push(cell.trim());
  return cells;
}
