/** `value` as `JSON.stringify` writes a number: the shortest decimal that reads back the same, `null` when not finite. */
export function numberJson(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
