import type { PosteriorSummary } from '../core/online-model.js';
import { dot } from '../linalg/dot.js';
import { conditionNumber } from '../linalg/condition-number.js';
import { trace } from '../linalg/trace.js';
import type { GaussianPosterior } from './gaussian-posterior.js';

/**
 * Monitoring scalars of a Gaussian posterior: ‖w‖, ln|V|, Tr V, the condition number of V (its
 * eigenvalues, O(d³), so call it at snapshot or scrape time, not per record) and the data
 * size it represents.
 */
export function gaussianSummary(posterior: Pick<GaussianPosterior, 'w' | 'V' | 'logDetV'>, dim: number, effectiveDataSize: number): PosteriorSummary {
  return {
    meanNorm: Math.sqrt(dot(posterior.w, posterior.w, dim)),
    logDetCovariance: posterior.logDetV,
    traceCovariance: trace(posterior.V, dim),
    conditionNumber: conditionNumber(posterior.V, dim),
    effectiveDataSize,
  };
}
