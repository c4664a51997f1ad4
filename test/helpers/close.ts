import { expect } from 'vitest';

/** Flattens a number, array or array of arrays to a plain number array. */
export function flat(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (ArrayLike(value)) return Array.from(value as ArrayLike<unknown>).flatMap((v) => flat(v));
  throw new Error(`not numeric: ${JSON.stringify(value)}`);
}

function ArrayLike(value: unknown): boolean {
  return Array.isArray(value) || ArrayBuffer.isView(value);
}

/**
 * Element-wise |a − b| ≤ rel·|b| + absOfMax·max|b| + abs (the VBLinLogit README's rule with
 * rel = 1e-6, absOfMax = 1e-9). Reports the worst element on failure.
 */
export function expectClose(actual: unknown, expected: unknown, tolerance: { rel?: number; absOfMax?: number; abs?: number }, what = 'value'): void {
  const a = flat(actual);
  const b = flat(expected);
  expect(a.length, `${what}: length`).toBe(b.length);
  const maxAbs = b.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  let worst = -Infinity;
  let worstIndex = -1;
  for (let i = 0; i < b.length; i++) {
    const allowed = (tolerance.rel ?? 0) * Math.abs(b[i]) + (tolerance.absOfMax ?? 0) * maxAbs + (tolerance.abs ?? 0);
    const excess = Math.abs(a[i] - b[i]) - allowed;
    if (!(excess <= worst)) { worst = excess; worstIndex = i; }
    if (Number.isNaN(a[i])) { worst = Infinity; worstIndex = i; break; }
  }
  if (worst > 0) expect.fail(`${what}[${worstIndex}]: got ${a[worstIndex]}, expected ${b[worstIndex]} (outside tolerance by ${worst})`);
}
