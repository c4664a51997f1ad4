import { describe, it } from 'vitest';
import { BernoulliLogitPointwise } from '../../src/likelihoods/bernoulli-logit-pointwise.js';
import { BmcDlmObjective } from '../../src/models/sparse-gp/bmc-dlm-objective.js';
import { Rng } from '../../src/rng/rng.js';
import { SquareLossDlmObjective } from '../../src/models/sparse-gp/square-loss-dlm-objective.js';
import { ElboObjective } from '../../src/models/sparse-gp/elbo-objective.js';
import { LogLossDlmObjective } from '../../src/models/sparse-gp/log-loss-dlm-objective.js';
import { InducingConditional } from '../../src/models/sparse-gp/inducing-conditional.js';
import { SparseGpEvaluator } from '../../src/models/sparse-gp/sparse-gp-evaluator.js';
import type { SparseGpParameters } from '../../src/models/sparse-gp/sparse-gp-parameters.js';
import { expectClose } from '../helpers/close.js';
import { objectiveCases } from './sparse-gp-fixture.js';

// README §6: own central differences with h ≈ 1e-6 agree to 1e-5·max(1,|g|).
const FD = { rel: 1e-5, abs: 1e-5 };
const H = 1e-6;

/** Whitened parameters at the same q(u) as the fixture: m̃ = Lk⁻¹m, L̃ = Lk⁻¹L. */
function whiten(p: SparseGpParameters): SparseGpParameters {
  const M = p.M;
  const conditional = new InducingConditional(M, p.kernel.dim);
  conditional.marginals(p, p.Z, 1);
  const lk = conditional.lk;
  const m = new Float64Array(M);
  const L = new Float64Array(M * M);
  for (let a = 0; a < M; a++) {
    let s = p.m[a];
    for (let b = 0; b < a; b++) s -= lk[a * M + b] * m[b];
    m[a] = s / lk[a * M + a];
  }
  for (let col = 0; col < M; col++) {
    for (let a = col; a < M; a++) {
      let s = p.L[a * M + col];
      for (let b = col; b < a; b++) s -= lk[a * M + b] * L[b * M + col];
      L[a * M + col] = s / lk[a * M + a];
    }
  }
  return { ...p, m, L, whitened: true };
}

describe('whitened parameterisation: same objective, gradients match central differences', () => {
  for (const c of objectiveCases().filter((k) => ['gauss_3d_ard', 'probit_2d_ard', 'poisson_2d_iso'].includes(k.name))) {
    for (const make of [(l: typeof c.likelihood) => new ElboObjective(l), (l: typeof c.likelihood) => new LogLossDlmObjective(l)]) {
      const objective = make(c.likelihood);
      it(`${c.name} ${objective.id}`, () => {
        const p = whiten(c.params);
        const evaluator = new SparseGpEvaluator(c.M, c.d);
        const g = { m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(p.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 };
        const value = evaluator.evaluate(p, c.x, c.y, c.n, objective, 1, g, true);
        const unwhitened = new SparseGpEvaluator(c.M, c.d).evaluate(c.params, c.x, c.y, c.n, objective, 1);
        expectClose(value, unwhitened, { rel: 1e-9, abs: 1e-9 }, 'objective');
        const f = (q: SparseGpParameters) => new SparseGpEvaluator(c.M, c.d).evaluate(q, c.x, c.y, c.n, objective, 1);
        const central = (bump: (q: SparseGpParameters, h: number) => SparseGpParameters) => (f(bump(p, H)) - f(bump(p, -H))) / (2 * H);
        const fdM = Array.from(p.m, (_, a) => central((q, h) => ({ ...q, m: q.m.map((v, k) => (k === a ? v + h : v)) })));
        expectClose(g.m, fdM, FD, 'm');
        const lower = Array.from({ length: c.M * c.M }, (_, k) => k).filter((k) => k % c.M <= Math.floor(k / c.M));
        expectClose(lower.map((k) => g.L[k]), lower.map((k) => central((q, h) => ({ ...q, L: q.L.map((v, j) => (j === k ? v + h : v)) }))), FD, 'L');
        const kernelFd = Array.from(p.kernel.params, (_, j) => central((q, h) => {
          const kernel = Object.assign(Object.create(Object.getPrototypeOf(q.kernel)), q.kernel, { params: q.kernel.params.map((v, k) => (k === j ? v + h : v)) });
          return { ...q, kernel };
        }));
        expectClose(g.kernel, kernelFd, FD, 'kernel');
        expectClose(g.Z, Array.from(p.Z, (_, k) => central((q, h) => ({ ...q, Z: q.Z.map((v, j) => (j === k ? v + h : v)) }))), FD, 'Z');
        if (c.raw.likelihood === 'gaussian') {
          const like = c.likelihood as any;
          const base = like.noiseVariance;
          const fdNoise = (() => {
            like.noiseVariance = base * Math.exp(H); const up = f(p);
            like.noiseVariance = base * Math.exp(-H); const down = f(p);
            like.noiseVariance = base;
            return (up - down) / (2 * H);
          })();
          expectClose(g.logNoise, fdNoise, FD, 'log noise');
        }
      });
    }
  }
});

describe('bMC DLM with the pointwise Bernoulli-logit likelihood: m, L and kernel gradients match central differences', () => {
  const c = objectiveCases().find((k) => k.name === 'probit_2d_ard')!;
  it('probit_2d_ard data, logit likelihood, fixed draws', () => {
    const objective = new BmcDlmObjective(new BernoulliLogitPointwise(), 5);
    objective.prepare(c.n, Rng.fromSeed(3));
    const p = whiten(c.params);
    const g = { m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(p.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 };
    new SparseGpEvaluator(c.M, c.d).evaluate(p, c.x, c.y, c.n, objective, 1, g, true);
    const f = (q: SparseGpParameters) => new SparseGpEvaluator(c.M, c.d).evaluate(q, c.x, c.y, c.n, objective, 1);
    const central = (bump: (q: SparseGpParameters, h: number) => SparseGpParameters) => (f(bump(p, H)) - f(bump(p, -H))) / (2 * H);
    expectClose(g.m, Array.from(p.m, (_, a) => central((q, h) => ({ ...q, m: q.m.map((v, k) => (k === a ? v + h : v)) }))), FD, 'm');
    expectClose(g.L[c.M + 1], central((q, h) => ({ ...q, L: q.L.map((v, j) => (j === c.M + 1 ? v + h : v)) })), FD, 'L[1][1]');
    expectClose(g.Z, Array.from(p.Z, (_, k) => central((q, h) => ({ ...q, Z: q.Z.map((v, j) => (j === k ? v + h : v)) }))), FD, 'Z');
  });
});

describe('the whitened fast path (no hyperparameter gradient) equals the general whitened path', () => {
  for (const c of objectiveCases()) {
    it(c.name, () => {
      const p = whiten(c.params);
      for (const objective of [new ElboObjective(c.likelihood), new LogLossDlmObjective(c.likelihood), new SquareLossDlmObjective()]) {
        const buffers = () => ({ m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(p.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 });
        const fast = buffers();
        const general = buffers();
        const a = new SparseGpEvaluator(c.M, c.d).evaluate(p, c.x, c.y, c.n, objective, 1.5, fast, false);
        const b = new SparseGpEvaluator(c.M, c.d).evaluate(p, c.x, c.y, c.n, objective, 1.5, general, true);
        expectClose(a, b, { rel: 1e-10, abs: 1e-10 }, `${objective.id} value`);
        expectClose(fast.m, general.m, { rel: 1e-8, absOfMax: 1e-9 }, `${objective.id} m`);
        expectClose(fast.L, general.L, { rel: 1e-8, absOfMax: 1e-9 }, `${objective.id} L`);
      }
    });
  }
});

describe('whitened hyperparameter and Z gradients (the whitened adjoint through B = Lk⁻¹Kuf) match fourth-order differences to 1e-7', () => {
  const c = objectiveCases().find((k) => k.name === 'gauss_3d_ard')!;
  for (const objective of [new ElboObjective(c.likelihood), new LogLossDlmObjective(c.likelihood)]) {
    it(`${c.name} ${objective.id}`, () => {
      const p = whiten(c.params);
      const g = { m: new Float64Array(c.M), L: new Float64Array(c.M * c.M), kernel: new Float64Array(p.kernel.size), Z: new Float64Array(c.M * c.d), logNoise: 0, meanConstant: 0 };
      new SparseGpEvaluator(c.M, c.d).evaluate(p, c.x, c.y, c.n, objective, 1, g, true);
      const f = (q: SparseGpParameters) => new SparseGpEvaluator(c.M, c.d).evaluate(q, c.x, c.y, c.n, objective, 1);
      const h = 2e-4;
      const stencil = (bump: (q: SparseGpParameters, step: number) => SparseGpParameters) =>
        (8 * (f(bump(p, h)) - f(bump(p, -h))) - (f(bump(p, 2 * h)) - f(bump(p, -2 * h)))) / (12 * h);
      const tight = { rel: 1e-7, abs: 1e-7 };
      const kernelFd = Array.from(p.kernel.params, (_, j) => stencil((q, step) => {
        const kernel = Object.assign(Object.create(Object.getPrototypeOf(q.kernel)), q.kernel, { params: q.kernel.params.map((v, k) => (k === j ? v + step : v)) });
        return { ...q, kernel };
      }));
      expectClose(g.kernel, kernelFd, tight, 'kernel');
      expectClose(g.Z, Array.from(p.Z, (_, k) => stencil((q, step) => ({ ...q, Z: q.Z.map((v, j) => (j === k ? v + step : v)) }))), tight, 'Z');
      expectClose(g.meanConstant, stencil((q, step) => ({ ...q, meanConstant: q.meanConstant + step })), tight, 'constant mean');
    });
  }
});
