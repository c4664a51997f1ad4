import { describe, expect, it } from 'vitest';
import { pgLogitCavi } from '../../src/models/pg-logit/cavi.js';
import { MinibatchSampler, type MinibatchSampling } from '../../src/models/pg-logit/minibatch-sampler.js';
import { pgLogitFamily, type PgLogitModel } from '../../src/models/pg-logit/family.js';
import { pgLogitElbo } from '../../src/models/pg-logit/objective.js';
import { resolvePgLogitPrior } from '../../src/models/pg-logit/resolve-pg-logit-prior.js';
import { vbLogitFamily } from '../../src/models/vb-logit/family.js';
import { cholesky } from '../../src/linalg/cholesky.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceCsv, readReferenceJson } from '../helpers/reference.js';
import { gaussianKl } from '../../src/gaussian/gaussian-kl.js';

// Tolerances from ../shared/reference/pgvb/README.md ("Suggested comparison tolerances").
const CAVI_ARRAY = { absOfMax: 1e-8 };
const ELBO = { abs: 1e-8 };
const FIXED_POINT = { absOfMax: 1e-6 };
const DETERMINISTIC_SVI = { absOfMax: 1e-9 };

const DATASETS = ['fig1_n20', 'fig1_n100', 'fig1_n1000', 'fig1_n10000', 's3_n1000_p25'];

function load(name: string) {
  const ref = readReferenceJson('pgvb', `${name}.json`);
  const data = readReferenceCsv('pgvb', ref.data_file);
  const signed = data.y.map((v) => 2 * v - 1);
  const priorOptions = { mean: ref.prior.mu0 as number[], covariance: ref.prior.Sigma0 as number[][] };
  return { ref, data, signed, priorOptions, prior: resolvePgLogitPrior(data.d, priorOptions) };
}

const flat = (m: number[][]) => m.flat();

describe.each(DATASETS)('pg-logit CAVI on %s', (name) => {
  const { ref, data, signed, priorOptions, prior } = load(name);
  const cavi = ref.cavi;

  it('reproduces the reference CAVI (Algorithm 2): iterations, μ, Σ, ξ, the ELBO and its whole trace', () => {
    const fit = pgLogitCavi(prior, data.x, signed, data.n, data.d, { tol: 1e-10, relativeTol: false, maxIter: 10_000 });
    expect(fit.iterations).toBe(cavi.iterations);
    expect(fit.converged).toBe(true);
    expectClose(fit.mean, cavi.mu, CAVI_ARRAY, 'mu');
    expectClose(fit.cov, flat(cavi.Sigma), CAVI_ARRAY, 'Sigma');
    expectClose(Array.from(fit.xi).slice(0, cavi.xi.length), cavi.xi, CAVI_ARRAY, 'xi');
    expectClose(fit.elbo, cavi.elbo, ELBO, 'elbo');
    expectClose(fit.elboTrace, cavi.elbo_trace, ELBO, 'elbo_trace');
    for (let t = 1; t < fit.elboTrace.length; t++) expect(fit.elboTrace[t] - fit.elboTrace[t - 1]).toBeGreaterThanOrEqual(-1e-9 * Math.abs(fit.elboTrace[t]));
  });

  it('the model (sda, one batch) is the same fit and, iterated on, reaches the stored fixed point', () => {
    const model = pgLogitFamily.create(data.d, { prior: priorOptions });
    const stats = model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    expect(stats.iterations).toBe(cavi.iterations);
    expectClose(stats.objective, cavi.elbo, ELBO, 'elbo');
    expectClose(model.posteriorMean(), cavi.mu, CAVI_ARRAY, 'mu');
    expectClose(model.covariance(), flat(cavi.Sigma), CAVI_ARRAY, 'Sigma');
    const tight = pgLogitCavi(prior, data.x, signed, data.n, data.d, { tol: 1e-15, relativeTol: true, maxIter: 10_000 });
    expectClose(tight.mean, cavi.fixed_point.mu, FIXED_POINT, 'fixed point mu');
    expectClose(tight.cov, flat(cavi.fixed_point.Sigma), FIXED_POINT, 'fixed point Sigma');
    expectClose(tight.elbo, cavi.fixed_point.elbo, ELBO, 'fixed point elbo');
  });

  it('evaluates the ELBO formula at the stored q, at the optimal ξ and at scaled ξ', () => {
    const factor = new Float64Array(data.d * data.d);
    cholesky(resolvePgLogitPrior(data.d, { covariance: cavi.Sigma }).precision, data.d, factor);
    const mean = Float64Array.from(cavi.mu as number[]);
    expectClose(pgLogitElbo(prior, factor, mean, data.d, data.x, signed, data.n), cavi.elbo_check.elbo_recomputed_formula, { abs: 1e-9 }, 'elbo');
    if (cavi.xi.length === data.n) {
      const scaled = [0.9, 0.99, 1.01, 1.1].map((s) => pgLogitElbo(prior, factor, mean, data.d, data.x, signed, data.n, cavi.xi.map((v: number) => s * v)));
      expectClose(scaled, cavi.elbo_check.elbo_with_xi_scaled_0p9_0p99_1p01_1p1, { abs: 1e-9 }, 'elbo at scaled xi');
      for (const value of scaled) expect(value).toBeLessThan(cavi.elbo);
    }
  });

  if (ref.svi_cyclic !== undefined) {
    it('svi_cyclic: 10⁴ single-record steps in file order match the reference (Algorithm 3)', () => {
      const model = pgLogitFamily.create(data.d, { prior: priorOptions, mode: 'svi', effectiveSize: data.n });
      const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, 1, 'cyclic', Rng.fromSeed(1));
      for (let t = 0; t < ref.svi_cyclic.settings.iters; t++) model.update(sampler.next());
      expectClose(model.posteriorMean(), ref.svi_cyclic.mu, DETERMINISTIC_SVI, 'mu');
      expectClose(model.covariance(), flat(ref.svi_cyclic.Sigma), DETERMINISTIC_SVI, 'Sigma');
    });
  }

  if (ref.svi_cyclic_minibatch !== undefined) {
    it('svi_cyclic_minibatch: |B| = 100 in file order, at 1, 5 and 20 epochs', () => {
      const model = pgLogitFamily.create(data.d, { prior: priorOptions, mode: 'svi', effectiveSize: data.n });
      const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, 100, 'cyclic', Rng.fromSeed(1));
      let steps = 0;
      for (const epochs of [1, 5, 20]) {
        const checkpoint = ref.svi_cyclic_minibatch.checkpoints[`epoch_${epochs}`];
        while (steps < checkpoint.iterations) { model.update(sampler.next()); steps++; }
        expectClose(model.posteriorMean(), checkpoint.mu, DETERMINISTIC_SVI, `mu at ${epochs} epochs`);
        expectClose(model.covariance(), flat(checkpoint.Sigma), DETERMINISTIC_SVI, `Sigma at ${epochs} epochs`);
      }
    });
  }

  const klToCavi = (model: PgLogitModel) => gaussianKl(model.posteriorMean(), model.covariance(), Float64Array.from(cavi.mu), Float64Array.from(flat(cavi.Sigma)), data.d);

  if (ref.svi_single !== undefined) {
    it('svi_single: the median KL(q_SVI ‖ q_CAVI) of 20 seeded runs of 10⁴ iid single-record steps lies within the stored median-of-20 [q01, q99]', () => {
      const kls: number[] = [];
      for (let seed = 1; seed <= 20; seed++) {
        const model = pgLogitFamily.create(data.d, { prior: priorOptions, mode: 'svi', effectiveSize: data.n });
        const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, 1, 'iid', Rng.fromSeed(seed));
        for (let t = 0; t < ref.svi_single.settings.iters; t++) model.update(sampler.next());
        kls.push(klToCavi(model));
      }
      kls.sort((a, b) => a - b);
      const median = 0.5 * (kls[9] + kls[10]);
      const q = ref.svi_single.kl_to_cavi_200seeds;
      expect(median).toBeGreaterThanOrEqual(q.median_of_20_q01);
      expect(median).toBeLessThanOrEqual(q.median_of_20_q99);
    });
  }

  if (ref.svi_minibatch !== undefined) {
    it.each([['perm', 'permutation'], ['iid', 'iid']] as const)('svi_minibatch (%s): the median KL of 20 seeded |B| = 100 runs after 1, 5, 20 epochs lies within the stored median-of-20 [q01, q99]', (block, sampling: MinibatchSampling) => {
      const medians: Record<number, number[]> = { 1: [], 5: [], 20: [] };
      for (let seed = 1; seed <= 20; seed++) {
        const model = pgLogitFamily.create(data.d, { prior: priorOptions, mode: 'svi', effectiveSize: data.n });
        const sampler = new MinibatchSampler(data.x, data.y, data.n, data.d, 100, sampling, Rng.fromSeed(seed));
        let steps = 0;
        for (const epochs of [1, 5, 20]) {
          while (steps < epochs * sampler.stepsPerEpoch) { model.update(sampler.next()); steps++; }
          medians[epochs].push(klToCavi(model));
        }
      }
      for (const epochs of [1, 5, 20]) {
        const kls = medians[epochs].sort((a, b) => a - b);
        const median = 0.5 * (kls[9] + kls[10]);
        const q = ref.svi_minibatch[block][`epoch_${epochs}`].kl_to_cavi_100seeds;
        expect(median, `${block} epoch ${epochs}`).toBeGreaterThanOrEqual(q.median_of_20_q01);
        expect(median, `${block} epoch ${epochs}`).toBeLessThanOrEqual(q.median_of_20_q99);
      }
    });
  }
});

describe('pg-logit CAVI and vb-logit without a hyperprior share the fixed point', () => {
  it.each(['fig1_n100', 's3_n1000_p25'])('%s: vb-logit with fixed α = 1/σ₀² gives the CAVI fixed point and its bound equals the ELBO', (name) => {
    const { ref, data } = load(name);
    const alpha = 1 / ref.prior.Sigma0[0][0];
    const vb = vbLogitFamily.create(data.d, { alpha, tol: 1e-15, maxIter: 5000 });
    vb.update({ x: data.x, y: data.y, n: data.n, d: data.d });
    expectClose(vb.posterior.w, ref.cavi.fixed_point.mu, FIXED_POINT, 'w');
    expectClose(vb.posterior.V, flat(ref.cavi.fixed_point.Sigma), FIXED_POINT, 'V');
    expectClose(vb.diagnostics.bound, ref.cavi.fixed_point.elbo, { abs: 1e-7 }, 'bound');
  });
});
