import { readFileSync } from 'node:fs';

/** [x, f(x)] pairs from test/fixtures/special-values.json (mpmath, 60 digits, rounded once). */
export type Table = Array<[number, number]>;

export interface SpecialValues {
  erfc: Table;
  erfcx: Table;
  erf: Table;
  normalCdf: Table;
  logNormalCdf: Table;
  normalQuantile: Table;
  lgamma: Table;
  digamma: Table;
  log1pexp: Table;
  sigmoid: Table;
  logSigmoid: Table;
  jaakkolaJordanLambda: Table;
  normalLogPdf: Array<[number, number, number, number]>;
  gaussHermite200: { n: number; positiveNodes: number[]; positiveWeights: number[] };
}

export const reference: SpecialValues = JSON.parse(
  readFileSync(new URL('../fixtures/special-values.json', import.meta.url), 'utf8'),
) as SpecialValues;

const DBL_MIN = 2.2250738585072014e-308;

/**
 * |got − want| / max(|want|, DBL_MIN): relative error for normal results, and the absolute
 * error in units of the smallest normal for subnormal ones (whose relative precision is lower).
 */
export function relativeError(got: number, want: number): number {
  if (got === want) return 0;
  return Math.abs(got - want) / Math.max(Math.abs(want), DBL_MIN);
}

/** The largest relative error of f over a table, and the input where it occurs. */
export function worstRelativeError(f: (x: number) => number, table: Table): { error: number; at: number } {
  let error = 0;
  let at = NaN;
  for (const [x, want] of table) {
    const e = relativeError(f(x), want);
    if (!(e <= error)) {
      error = e;
      at = x;
    }
  }
  return { error, at };
}
