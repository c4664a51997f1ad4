import { ConfigError } from '../core/config-error.js';
import type { Rng } from '../rng/rng.js';

/**
 * Random Fourier features for the squared-exponential ARD kernel k(x, x') = exp(−½ Σ_d (x_d − x'_d)²/ℓ_d²)
 * (Rahimi & Recht 2007), laid out as the DIRECT authors' `RBF_RFFs.Phi`:
 *
 *   φ(x) = √(1/c) · [cos(x·Ω/ℓ), sin(x·Ω/ℓ)]   (cos block first, 2c outputs),
 *
 * with Ω a d×c matrix of N(0, 1) draws, so E[φ(x)ᵀφ(x')] = k(x, x'). No signal variance: the prior
 * scale belongs to the weights. The map is fixed by (Ω, ℓ), which is all a snapshot needs.
 */
export class RandomFourierFeatures {
  /** Number of outputs b = 2c. */
  readonly outputDim: number;
  private readonly scaled: Float64Array;
  private readonly amplitude: number;

  /** A map from explicit frequencies: `omega` is row-major inputDim×count, `lengthscales` has inputDim entries. */
  constructor(readonly inputDim: number, readonly count: number, readonly omega: Float64Array, readonly lengthscales: Float64Array) {
    if (!Number.isInteger(inputDim) || inputDim < 1) throw new ConfigError('input dimension must be a positive integer', { field: 'features.inputDim', value: inputDim });
    if (!Number.isInteger(count) || count < 1) throw new ConfigError('must be a positive integer', { field: 'features.count', value: count });
    if (omega.length !== inputDim * count) throw new ConfigError(`omega must hold ${inputDim * count} values`, { field: 'features.omega', value: omega.length });
    if (lengthscales.length !== inputDim) throw new ConfigError(`must hold ${inputDim} lengthscales`, { field: 'features.lengthscale', value: lengthscales.length });
    lengthscales.forEach((l, d) => {
      if (!(l > 0 && Number.isFinite(l))) throw new ConfigError('lengthscales must be finite and positive', { field: `features.lengthscale[${d}]`, value: l });
    });
    this.outputDim = 2 * count;
    this.amplitude = Math.sqrt(1 / count);
    this.scaled = new Float64Array(inputDim * count);
    for (let d = 0; d < inputDim; d++) for (let k = 0; k < count; k++) this.scaled[d * count + k] = omega[d * count + k] / lengthscales[d];
  }

  /** A map with Ω drawn from `rng`; `lengthscale` is one value for every input or one per input (ARD). */
  static sample(inputDim: number, count: number, lengthscale: number | readonly number[], rng: Rng): RandomFourierFeatures {
    const ls = typeof lengthscale === 'number' ? new Float64Array(inputDim).fill(lengthscale) : Float64Array.from(lengthscale);
    const omega = new Float64Array(inputDim * count);
    rng.fill(omega);
    return new RandomFourierFeatures(inputDim, count, omega, ls);
  }

  /** Writes φ(x) for x = `x[offset .. offset+inputDim)` into `out[outOffset .. outOffset+2c)`; no allocation. */
  map(x: Float64Array, offset: number, out: Float64Array, outOffset = 0): void {
    const { inputDim, count, scaled, amplitude } = this;
    for (let k = 0; k < count; k++) {
      let z = 0;
      for (let d = 0; d < inputDim; d++) z += x[offset + d] * scaled[d * count + k];
      out[outOffset + k] = amplitude * Math.cos(z);
      out[outOffset + count + k] = amplitude * Math.sin(z);
    }
  }
}
