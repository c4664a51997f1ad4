/** CSV text with a header line: numbers in shortest round-trip form, strings as given (no commas expected). */
export function csvText(columns: readonly string[], rows: readonly (readonly (number | string)[])[]): string {
  return [columns.join(','), ...rows.map((row) => row.map(String).join(','))].join('\n') + '\n';
}
