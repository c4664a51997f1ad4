import { BernoulliProbitLikelihood } from '../../src/likelihoods/bernoulli-probit-likelihood.js';
import { GaussianLikelihood } from '../../src/likelihoods/gaussian-likelihood.js';
import type { PointwiseLikelihood } from '../../src/likelihoods/pointwise-likelihood.js';
import { PoissonLikelihood } from '../../src/likelihoods/poisson-likelihood.js';
import { RbfKernel } from '../../src/kernels/rbf-kernel.js';
import type { SparseGpParameters } from '../../src/models/sparse-gp/sparse-gp-parameters.js';
import { flat } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';

/** One case of ../shared/reference/sgp/objective_cases.json turned into evaluator inputs. */
export interface ObjectiveCase {
  readonly name: string;
  readonly raw: any;
  readonly n: number;
  readonly d: number;
  readonly M: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly likelihood: PointwiseLikelihood;
  readonly params: SparseGpParameters;
}

/** The six public objective cases, unwhitened, without jitter (as the fixture README says). */
export function objectiveCases(): ObjectiveCase[] {
  return readReferenceJson('sgp', 'objective_cases.json').cases.map((raw: any) => {
    const { n, d, M } = raw;
    const kernel = new RbfKernel(d, raw.kernel.ard, raw.kernel.s ** 2, raw.kernel.ell);
    const likelihood = raw.likelihood === 'gaussian' ? new GaussianLikelihood(raw.sn ** 2)
      : raw.likelihood === 'probit' ? new BernoulliProbitLikelihood() : new PoissonLikelihood();
    const params: SparseGpParameters = {
      kernel, meanConstant: 0, M,
      Z: Float64Array.from(flat(raw.Z)), m: Float64Array.from(raw.m), L: Float64Array.from(flat(raw.L)),
      whitened: false, jitter: 0, beta: raw.beta,
    };
    return { name: raw.name, raw, n, d, M, x: Float64Array.from(flat(raw.X)), y: Float64Array.from(raw.y), likelihood, params };
  });
}
