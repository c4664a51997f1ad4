import { readReferenceCsv, readReferenceJson } from '../helpers/reference.js';

/** A reference CSV's `x` column (the only input) and `y`; the `f` (and other) columns are dropped. */
export function oneInputData(file: string): { x: Float64Array; y: Float64Array; n: number } {
  const table = readReferenceCsv('sgp', file);
  const column = table.features.indexOf('x');
  const x = Float64Array.from({ length: table.n }, (_, i) => table.x[i * table.d + column]);
  return { x, y: table.y, n: table.n };
}

/** linspace(a, b, k) as nested rows of one input. */
export function linspaceRows(a: number, b: number, k: number): number[][] {
  return Array.from({ length: k }, (_, i) => [a + ((b - a) * i) / (k - 1)]);
}

/** The regression anchors of benchmark_anchors.json. */
export const regressionAnchors = () => readReferenceJson('sgp', 'benchmark_anchors.json').regression;
/** The classification anchors of benchmark_anchors.json. */
export const classificationAnchors = () => readReferenceJson('sgp', 'benchmark_anchors.json').classification;

/** Mean test NLL and MSE of Gaussian predictions with latent mean mu and variance v + noise. */
export function regressionMetrics(mu: Float64Array, v: Float64Array, noise: number, y: Float64Array): { nll: number; mse: number } {
  let nll = 0;
  let mse = 0;
  for (let i = 0; i < y.length; i++) {
    const t = v[i] + noise;
    const r = y[i] - mu[i];
    nll += 0.5 * (Math.log(2 * Math.PI * t) + (r * r) / t);
    mse += r * r;
  }
  return { nll: nll / y.length, mse: mse / y.length };
}
