import { Adam } from '../src/optim/adam.js';
import { Rng } from '../src/rng/rng.js';

/** Settings of {@link fitMeanFieldGaussianBnn} (defaults: the paper's REPARAM setup, appendix E). */
export interface MeanFieldGaussianBnnSettings {
  readonly hidden: number;
  readonly iterations: number;
  readonly batchSize: number;
  readonly samples: number;
  readonly learningRate: number;
  readonly seed: number;
}

/** A fitted mean-field Gaussian q(w) = Π N(μ_j, s_j²) of the same quadratic network, and its point estimate of σ². */
export interface MeanFieldGaussianBnn {
  readonly mean: Float64Array;
  readonly sd: Float64Array;
  readonly noise: number;
  /** Monte Carlo predictive mean from `draws` draws of q (the paper uses 1,000). */
  predictMean(x: Float64Array, offset: number, draws: number, rng: Rng): number;
}

/** f(x; w) = Σ_h v_h (u_hᵀx̃)² + c with x̃ = (x, 1) and the `direct-bnn` weight order (u, v, c); writes ∂f/∂w into `grad` when given. */
function network(w: Float64Array, d: number, H: number, x: Float64Array, offset: number, grad?: Float64Array): number {
  const D = d + 1;
  let f = w[H * D + H];
  for (let h = 0; h < H; h++) {
    let a = w[h * D + d];
    for (let i = 0; i < d; i++) a += w[h * D + i] * x[offset + i];
    const v = w[H * D + h];
    f += v * a * a;
    if (grad !== undefined) {
      for (let i = 0; i < d; i++) grad[h * D + i] = 2 * v * a * x[offset + i];
      grad[h * D + d] = 2 * v * a;
      grad[H * D + h] = a * a;
    }
  }
  if (grad !== undefined) grad[H * D + H] = 1;
  return f;
}

const softplus = (r: number): number => (r > 30 ? r : Math.log1p(Math.exp(r)));
const sigmoid = (r: number): number => 1 / (1 + Math.exp(-r));

/**
 * The baseline of Evans & Nair's table 1 ("REPARAM mean-field"), for the quadratic network of
 * `direct-bnn`: prior N(0, 1) on every weight, q(w) = Π N(μ_j, softplus(ρ_j)²), σ² a point estimate,
 * Adam on the doubly stochastic negative ELBO (minibatches, reparameterised draws w = μ + s·ε; the
 * KL term in closed form). Bench-only code.
 */
export function fitMeanFieldGaussianBnn(x: Float64Array, y: Float64Array, n: number, d: number, settings: MeanFieldGaussianBnnSettings): MeanFieldGaussianBnn {
  const { hidden: H, iterations, batchSize, samples, learningRate, seed } = settings;
  const b = H * (d + 1) + H + 1;
  const rng = Rng.fromSeed(seed);
  let sy = 0;
  let syy = 0;
  for (let r = 0; r < n; r++) { sy += y[r]; syy += y[r] * y[r]; }
  const params = new Float64Array(2 * b + 1);
  for (let j = 0; j < b; j++) { params[j] = 0.3 * rng.normal(); params[b + j] = Math.log(Math.expm1(0.05)); }
  params[2 * b] = Math.log(Math.max(syy / n - (sy / n) ** 2, 1e-6));
  const adam = new Adam(params.length, { learningRate });
  const gradient = new Float64Array(params.length);
  const w = new Float64Array(b);
  const eps = new Float64Array(b);
  const df = new Float64Array(b);
  const dw = new Float64Array(b);
  const scale = n / batchSize;
  for (let t = 0; t < iterations; t++) {
    gradient.fill(0);
    const sigma2 = Math.exp(params[2 * b]);
    for (let s = 0; s < samples; s++) {
      for (let j = 0; j < b; j++) { eps[j] = rng.normal(); w[j] = params[j] + softplus(params[b + j]) * eps[j]; }
      dw.fill(0);
      let dTau = 0;
      for (let k = 0; k < batchSize; k++) {
        const r = Math.floor(rng.nextDouble() * n);
        const e = y[r] - network(w, d, H, x, r * d, df);
        for (let j = 0; j < b; j++) dw[j] -= (scale * e * df[j]) / sigma2;
        dTau += scale * (0.5 - (e * e) / (2 * sigma2));
      }
      for (let j = 0; j < b; j++) {
        gradient[j] += dw[j] / samples;
        gradient[b + j] += (dw[j] * eps[j] * sigmoid(params[b + j])) / samples;
      }
      gradient[2 * b] += dTau / samples;
    }
    for (let j = 0; j < b; j++) {
      const sd = softplus(params[b + j]);
      gradient[j] += params[j];
      gradient[b + j] += (sd - 1 / sd) * sigmoid(params[b + j]);
    }
    adam.step(params, gradient);
  }
  const mean = params.slice(0, b);
  const sd = Float64Array.from(params.subarray(b, 2 * b), softplus);
  return {
    mean, sd, noise: Math.exp(params[2 * b]),
    predictMean(xs, offset, draws, r) {
      let total = 0;
      for (let s = 0; s < draws; s++) {
        for (let j = 0; j < b; j++) w[j] = mean[j] + sd[j] * r.normal();
        total += network(w, d, H, xs, offset);
      }
      return total / draws;
    },
  };
}
