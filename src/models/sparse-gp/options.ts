import type { OptionDocs } from '../../core/option-docs.js';

/** Likelihoods the sparse GP offers. */
export type SparseGpLikelihoodName = 'gaussian' | 'bernoulli-probit' | 'bernoulli-logit' | 'poisson';
/** Parameter groups that can be held fixed (the paper's "fixed-DLM" fixes kernel, noise and Z). */
export type SparseGpFixedGroup = 'kernel' | 'noise' | 'Z' | 'mean';

/** Options of the sparse-GP families (every field optional; defaults in {@link SPARSE_GP_OPTION_DOCS}). */
export interface SparseGpOptions {
  readonly likelihood?: SparseGpLikelihoodName;
  /** 'elbo' (β = 1: SVGP; else β-ELBO), 'dlm' (log loss), 'sq-dlm' (square loss, gaussian only). */
  readonly objective?: 'elbo' | 'dlm' | 'sq-dlm';
  /** DLM data term for non-closed forms: 'quadrature' (Gauss–Hermite / closed form), 'bmc', 'ups'. */
  readonly estimator?: 'quadrature' | 'bmc' | 'ups';
  /** Monte Carlo samples per point for bMC / uPS. */
  readonly samples?: number;
  /** Number of inducing inputs. */
  readonly M?: number;
  readonly beta?: number;
  readonly kernel?: { readonly type?: 'rbf' | 'rbf-ard'; readonly variance?: number; readonly lengthscale?: number | readonly number[] };
  readonly noiseVariance?: number;
  readonly mean?: 'zero' | 'constant';
  /** Inducing inputs M×d; by default chosen from the first batch by k-means++ seeding. */
  readonly Z?: readonly (readonly number[])[];
  /** How Z is chosen from the first batch when not given: k-means++ seeding (default) or its first M rows (GPyTorch's demo). */
  readonly zInit?: 'kmeans++' | 'first';
  readonly fixed?: readonly SparseGpFixedGroup[];
  /** q over whitened v (u = Lk v; default) or over u. */
  readonly whitened?: boolean;
  readonly jitter?: number;
  readonly learningRate?: number;
  /** Adam steps per `update`. */
  readonly stepsPerUpdate?: number;
  /** Effective data size N for the n/B scaling; default: records seen so far. */
  readonly dataSize?: number;
  readonly seed?: number;
}

/** {@link SparseGpOptions} with every default filled in and checked. */
export interface ResolvedSparseGpOptions {
  readonly likelihood: SparseGpLikelihoodName;
  readonly objective: 'elbo' | 'dlm' | 'sq-dlm';
  readonly estimator: 'quadrature' | 'bmc' | 'ups';
  readonly samples: number;
  readonly M: number;
  readonly beta: number;
  readonly ard: boolean;
  readonly variance: number;
  readonly lengthscale: number[];
  readonly noiseVariance: number;
  readonly mean: 'zero' | 'constant';
  readonly Z: number[][] | null;
  readonly zInit: 'kmeans++' | 'first';
  readonly fixed: SparseGpFixedGroup[];
  readonly whitened: boolean;
  readonly jitter: number;
  readonly learningRate: number;
  readonly stepsPerUpdate: number;
  readonly dataSize: number | null;
  readonly seed: number;
}

/** What each option of {@link SparseGpOptions} means. */
export const SPARSE_GP_OPTION_DOCS: OptionDocs = {
  likelihood: 'observation model: gaussian (sparse-gp), bernoulli-probit (default) or bernoulli-logit (sparse-gp-classifier), poisson (sparse-gp-count)',
  objective: 'elbo (β-ELBO, SVGP at β = 1; default), dlm (log-loss DLM) or sq-dlm (square-loss DLM, gaussian only)',
  estimator: 'log-loss DLM data term: quadrature (closed form or Gauss–Hermite; default), bmc or ups',
  samples: 'Monte Carlo samples per point for bmc and ups (default 10)',
  M: 'number of inducing inputs (default 20)',
  beta: 'weight β of the regulariser (default 1)',
  kernel: {
    type: 'rbf (default) or rbf-ard (one lengthscale per input)',
    variance: 'initial kernel variance s² (default 1)',
    lengthscale: 'initial lengthscale ℓ, a number or (rbf-ard) one per input (default 1)',
  },
  noiseVariance: 'initial Gaussian noise variance σ² (default 1)',
  mean: 'prior mean: zero (default) or a learned constant',
  Z: 'inducing inputs, M rows of d numbers (default: chosen from the first batch)',
  zInit: 'how Z is chosen from the first batch: kmeans++ (default) or first (its first M rows)',
  fixed: 'parameter groups held at their initial values: any of kernel, noise, Z, mean (default none)',
  whitened: 'q over whitened v with u = chol(Kuu)·v (default true) or over u',
  jitter: 'added to the diagonal of Kuu before factorising (default 1e-6)',
  learningRate: 'Adam learning rate (default 0.01)',
  stepsPerUpdate: 'Adam steps per update (default 1)',
  dataSize: 'effective data size N of the N/B scaling (default: the records seen so far)',
  seed: 'seed of the generator for k-means++ and the stochastic estimators (default 1)',
};
