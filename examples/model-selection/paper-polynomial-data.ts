import { Rng, type Batch } from 'vbstream';

/** A data set of Drugowitsch's model-selection examples, with the weights that made it. */
export interface PolynomialData extends Batch {
  /** The generating weights of 1, x, x² (true order 2). */
  readonly truth: Float64Array;
}

/** Order of the generating polynomial in both examples (D = 3 weights). */
export const TRUE_ORDER = 2;

/**
 * The data of Drugowitsch §2.6.4 (regression: N = 10, y = w₀ + w₁x + w₂x² + N(0, 1) noise) or §3.6.3
 * (classification: N = 50, y ~ Bernoulli(σ(w₀ + w₁x + w₂x²)), labels 0/1), with w ~ N(0, I₃) and x
 * uniform on [−5, 5], as in the reference scripts vb_linear_example_modelsel and vb_logit_example_modelsel.
 */
export function paperPolynomialData(task: 'regression' | 'classification', seed: number): PolynomialData {
  const rng = Rng.fromSeed(seed);
  const truth = Float64Array.from({ length: TRUE_ORDER + 1 }, () => rng.normal());
  const n = task === 'regression' ? 10 : 50;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = -5 + 10 * rng.nextDouble();
    const f = truth[0] + truth[1] * x[i] + truth[2] * x[i] * x[i];
    y[i] = task === 'regression' ? f + rng.normal() : rng.nextDouble() < 1 / (1 + Math.exp(-f)) ? 1 : 0;
  }
  return { x, y, n, d: 1, truth };
}
