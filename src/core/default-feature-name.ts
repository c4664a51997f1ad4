/**
 * The name of feature column `column` (0-based) when the schema gives none: `x0`, `x1`, …, the same
 * everywhere a feature is named (the live page's coefficients, every source), so column j is `xj`
 * on a synthetic stream, a file and a Kafka topic alike.
 */
export function defaultFeatureName(column: number): string {
  return `x${column}`;
}
