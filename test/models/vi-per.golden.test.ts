import { describe, expect, it } from 'vitest';
import { resolveGaussianPrior } from '../../src/gaussian/resolve-gaussian-prior.js';
import { bernoulliLogit } from '../../src/likelihoods/bernoulli-logit.js';
import { getFamily } from '../../src/registry.js';
import { GaussianLogitObjective, packedLength } from '../../src/models/vi-per/objective.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceCsv, readReferenceJson } from '../helpers/reference.js';

const data = readReferenceCsv('viper', 'logreg_n200_p3.csv');
const fixture = readReferenceJson('viper', 'logreg_n200_p3.json');
const d = data.d;
const prior = resolveGaussianPrior(d, { mean: 0, covariance: 1 }, 1);

function choleskyOf(sigma: number[][]): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = sigma[i][j];
      for (let k = 0; k < j; k++) sum -= l[i * d + k] * l[j * d + k];
      l[i * d + j] = i === j ? Math.sqrt(sum) : sum / l[j * d + j];
    }
  }
  return l;
}

function evaluateAt(method: 'viper' | 'gauss-hermite' | 'jj', l: number, mu: number[], sigma: number[][]): { value: number; gradient: Float64Array; objective: GaussianLogitObjective } {
  const objective = new GaussianLogitObjective(d, 'full', bernoulliLogit(method, { l, points: 200 }));
  const params = new Float64Array(packedLength(d, 'full'));
  objective.pack(Float64Array.from(mu), choleskyOf(sigma), params);
  const gradient = new Float64Array(params.length);
  const value = objective.evaluate(params, gradient, data.x, data.y, data.n, undefined, 1, prior);
  return { value, gradient, objective };
}

/** ∂F/∂L from the packed gradient (log-diagonal chain rule undone). */
function gradL(gradient: Float64Array, l: Float64Array): number[][] {
  const out = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  let k = d;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j < i; j++) out[i][j] = gradient[k++];
    out[i][i] = gradient[k++] / l[i * d + i];
  }
  return out;
}

describe('vi-per objective at the fixture evaluation points (README: 1e-9 abs)', () => {
  for (const point of fixture.evaluation_points) {
    it(`F_l for every l, the F12 gradients, the exact ELBO and the JJ bound at the ${point.name} q`, () => {
      for (const [l, expected] of Object.entries(point.viper_F)) {
        expect(Math.abs(evaluateAt('viper', Number(l), point.mu, point.Sigma).value - (expected as number)), `F_${l}`).toBeLessThanOrEqual(1e-9);
      }
      const f12 = evaluateAt('viper', 12, point.mu, point.Sigma);
      expectClose(f12.gradient.subarray(0, d), point.viper_F12_grad_mu, { abs: 1e-9 }, 'F12 ∂μ');
      expectClose(gradL(f12.gradient, f12.objective.factor), point.viper_F12_grad_L, { abs: 1e-9 }, 'F12 ∂L');
      const exact = evaluateAt('gauss-hermite', 12, point.mu, point.Sigma);
      expect(Math.abs(exact.value - point.exact_elbo)).toBeLessThanOrEqual(1e-9);
      expectClose(exact.gradient.subarray(0, d), point.exact_elbo_grad_mu, { abs: 1e-9 }, 'exact ∂μ');
      expect(Math.abs(evaluateAt('jj', 12, point.mu, point.Sigma).value - point.jj_bound_opt_xi)).toBeLessThanOrEqual(1e-9);
    });
  }
});

const cases = [
  ['viper_full_l12', 'viper', 'full', 12], ['viper_mf_l12', 'viper', 'diagonal', 12], ['viper_full_l5', 'viper', 'full', 5],
  ['viper_mf_l2', 'viper', 'diagonal', 2], ['exact_full', 'gauss-hermite', 'full', 12], ['exact_mf', 'gauss-hermite', 'diagonal', 12],
  ['jj_full', 'jj', 'full', 12], ['jj_mf', 'jj', 'diagonal', 12],
] as const;

describe('fitted optimum on logreg_n200_p3 (README: μ, Σ 1e-6 abs; objective 1e-8)', () => {
  it.each(cases)('%s', (name, method, covariance, l) => {
    const model = getFamily('vi-per').create(d, { method, covariance, l, tol: 1e-14, points: 200 });
    model.update({ x: data.x, y: data.y, n: data.n, d });
    const reference = fixture.methods[name];
    expectClose(model.posteriorMean(), reference.mu, { abs: 1e-6 }, `${name} μ`);
    expectClose(model.covariance(), reference.Sigma, { abs: 1e-6 }, `${name} Σ`);
    expect(Math.abs(model.diagnostics.objective - reference.objective_value)).toBeLessThanOrEqual(1e-8);
  });
});

describe('the registry families with their default settings reach the fixture optimum', () => {
  it.each([['vi-per', 'viper_full_l12'], ['vi-per-mf', 'viper_mf_l12'], ['vi-gh', 'exact_full']] as const)('%s → %s (μ, Σ 1e-6)', (id, name) => {
    const model = getFamily(id).create(d, { prior: { mean: 0, covariance: 1 }, l: 12, seed: 1 });
    model.update({ x: data.x, y: data.y, n: data.n, d });
    expectClose(model.posteriorMean(), fixture.methods[name].mu, { abs: 1e-6 }, 'μ');
    expectClose(model.covariance(), fixture.methods[name].Sigma, { abs: 1e-6 }, 'Σ');
  });
});
