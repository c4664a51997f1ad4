/** A row-major rows×cols Float64Array as an array of row arrays (for JSON). */
export function jsonMatrix(values: Float64Array, rows: number, cols: number = rows): number[][] {
  return Array.from({ length: rows }, (_, i) => Array.from(values.subarray(i * cols, i * cols + cols)));
}
