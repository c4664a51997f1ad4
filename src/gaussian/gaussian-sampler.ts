import { cholesky } from '../linalg/cholesky.js';
import type { Rng } from '../rng/rng.js';
import { sampleMultivariateNormal } from '../rng/sample-multivariate-normal.js';
import type { GaussianPosterior } from './gaussian-posterior.js';

/**
 * Draws w ~ N(w, V) for the logistic families, caching V's Cholesky factor until `invalidate()`
 * (Thompson sampling calls `sample` far more often than the posterior changes).
 */
export class GaussianSampler {
  private factor: Float64Array | undefined;
  private readonly z: Float64Array;

  constructor(private readonly dim: number) {
    this.z = new Float64Array(dim);
  }

  sample(posterior: Pick<GaussianPosterior, 'w' | 'V'>, rng: Rng, out: Float64Array = new Float64Array(this.dim)): Float64Array {
    if (this.factor === undefined) {
      this.factor = new Float64Array(this.dim * this.dim);
      cholesky(posterior.V, this.dim, this.factor, { what: 'posterior covariance V' });
    }
    return sampleMultivariateNormal(rng, posterior.w, this.factor, this.dim, out, this.z);
  }

  invalidate(): void {
    this.factor = undefined;
  }
}
