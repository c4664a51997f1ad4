import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { directLogitFamily, DirectLogitModel } from '../../src/models/direct/index.js';
import { getFamily } from '../../src/registry.js';
import { Rng } from '../../src/rng/rng.js';
import { buildDirectGrid } from '../../src/models/direct/grid.js';
import { DirectLogisticBound } from '../../src/models/direct/logistic-bound.js';
import { log1pexp } from '../../src/special/log1pexp.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';

const logistic = readReferenceJson('direct', 'logistic_cases.json');

/** E_q[log p(y | w)] by enumerating all m̄^b hypotheses, Pr(y = 1 | w) = σ(φᵀw). */
function exactExpectedLogLik(c: any, Q: number[][], y: number[]): number {
  const { b, mbar } = c;
  let total = 0;
  const idx = new Array<number>(b).fill(0);
  for (let h = 0; h < mbar ** b; h++) {
    let rest = h;
    let prob = 1;
    for (let j = b - 1; j >= 0; j--) { idx[j] = rest % mbar; rest = Math.floor(rest / mbar); prob *= Q[j][idx[j]]; }
    let ll = 0;
    c.Phi.forEach((phi: number[], i: number) => {
      const z = phi.reduce((s, v, j) => s + v * c.Wbar[j][idx[j]], 0);
      ll += y[i] === 1 ? -log1pexp(-z) : -log1pexp(z);
    });
    total += prob * ll;
  }
  return total;
}

describe.each<[string, any]>(logistic.cases.map((c: any): [string, any] => [c.name, c]))('DIRECT Theorem 2 on %s', (_, c: any) => {
  const grid = buildDirectGrid(c.b, { support: c.Wbar, priorProbs: c.prior_P }, false);
  const phi = Float64Array.from(c.Phi.flat());
  const standard = Float64Array.from(c.y, (v: number) => (v === 1 ? 1 : -1));
  const paper = Float64Array.from(c.y, (v: number) => (v === 0 ? 1 : -1));

  it.each(Object.keys(c.q_cases))('q = %s: the bound, its log terms and the ELBO match in both label conventions (1e-10 relative)', (name) => {
    const qc = c.q_cases[name];
    const logits = Float64Array.from(qc.logits.flat());
    const bound = new DirectLogisticBound(grid);
    for (const [signs, block] of [[standard, qc.standard], [paper, qc.paper]] as const) {
      const elbo = bound.evaluate(logits, phi, signs, c.n, 1);
      expectClose(bound.expectedLogLikelihoodBound, block.expected_loglik_theorem2, { rel: 1e-10 }, 'E log lik bound');
      expectClose(elbo, block.elbo_theorem2, { rel: 1e-10 }, 'ELBO bound');
      const logs = [0, 1, 2, 3, 4].map((i) => bound.logTerm(phi, i * c.b, signs[i]));
      expectClose(logs, block.log_theorem2_term_first5, { rel: 1e-10, abs: 1e-13 }, 'log terms');
      expectClose(logs.map((l) => -Math.exp(l)), block.per_obs_theorem2_first5, { rel: 1e-10 }, 'per-observation bound');
    }
  });

  it.each(Object.keys(c.q_cases))('q = %s: the bound lies below the exact E_q log-likelihood by the stored gap', (name) => {
    const qc = c.q_cases[name];
    const bound = new DirectLogisticBound(grid);
    bound.evaluate(Float64Array.from(qc.logits.flat()), phi, standard, c.n, 1);
    const exact = exactExpectedLogLik(c, qc.Q, c.y);
    expectClose(exact, qc.standard.expected_loglik_exact, { rel: 1e-10 }, 'exact (enumeration)');
    expect(exact - bound.expectedLogLikelihoodBound).toBeGreaterThanOrEqual(0);
    expectClose(exact - bound.expectedLogLikelihoodBound, qc.standard.gap, { rel: 1e-9, abs: 1e-9 }, 'gap');
    expectClose(exactExpectedLogLik(c, qc.Q, c.y.map((v: number) => 1 - v)), qc.paper.expected_loglik_exact, { rel: 1e-10 }, 'exact, paper convention');
  });

  it('the gradient matches central differences of the bound', () => {
    const logits = Float64Array.from(c.q_cases.random.logits.flat());
    const bound = new DirectLogisticBound(grid);
    const gradient = new Float64Array(logits.length);
    const scale = 2.5;
    bound.evaluate(logits, phi, standard, c.n, scale, gradient);
    const fd = Array.from(logits, (_, k) => {
      const h = 1e-5;
      const plus = logits.slice(); plus[k] += h;
      const minus = logits.slice(); minus[k] -= h;
      return (bound.evaluate(plus, phi, standard, c.n, scale) - bound.evaluate(minus, phi, standard, c.n, scale)) / (2 * h);
    });
    expectClose(gradient, fd, { rel: 1e-6, absOfMax: 1e-7 }, 'gradient');
  });
});

describe('direct-logit training', () => {
  const c = logistic.cases[0];
  const batch = { x: Float64Array.from(c.Phi.flat()), y: Float64Array.from(c.y), n: c.n, d: c.b };

  it('full-batch Adam on the Theorem-2 bound reaches the reference bound maximiser; the bound stays below the exact ELBO', () => {
    const model = directLogitFamily.create(c.b, { support: c.Wbar, priorProbs: c.prior_P, learningRate: 0.02, stepsPerBatch: 3000, dataSize: c.n });
    const start = model.elboBound(batch);
    expectClose(start, c.q_cases.prior.standard.elbo_theorem2, { rel: 1e-10 }, 'bound at the prior');
    model.update(batch);
    const bound = model.elboBound(batch);
    const ref = c.q_cases.argmax_theorem2_elbo_standard.standard.elbo_theorem2;
    expect(bound).toBeGreaterThan(ref - 0.05);
    const q = model.probs();
    const Q = Array.from({ length: c.b }, (_, j) => Array.from(q.subarray(j * c.mbar, (j + 1) * c.mbar)));
    let kl = 0;
    const logPrior = model.grid.logPrior;
    q.forEach((v, k) => { kl += v * (logPrior[k] - Math.log(v)); });
    expect(bound).toBeLessThanOrEqual(exactExpectedLogLik(c, Q, c.y) + kl);
    expect(model.predict(Float64Array.from(c.Phi[0])).prob).toBeGreaterThan(0);
  });

  it('streams minibatches, snapshots exactly, samples 4-bit codes and refuses bad labels untouched', () => {
    const model = directLogitFamily.create(c.b, { support: c.Wbar, priorProbs: c.prior_P });
    for (let s = 0; s < c.n; s += 10) model.update({ x: batch.x.subarray(s * c.b, (s + 10) * c.b), y: batch.y.subarray(s, s + 10), n: 10, d: c.b });
    expect(model.recordsSeen).toBe(c.n);
    const bytes = encodeSnapshot(model.snapshot());
    const restored = directLogitFamily.restore(decodeSnapshot(bytes).snapshot) as DirectLogitModel;
    expect(encodeSnapshot(restored.snapshot())).toEqual(bytes);
    model.update(batch);
    restored.update(batch);
    expect(Array.from(restored.posteriorMean())).toEqual(Array.from(model.posteriorMean()));
    expect(model.sampleCodes(Rng.fromSeed(1)).bits).toBe(4);
    const before = encodeSnapshot(model.snapshot());
    expect(() => model.update({ x: batch.x.subarray(0, c.b), y: Float64Array.of(2), n: 1, d: c.b, firstRow: 5 })).toThrow(/row 5, column y, value 2/);
    expect(encodeSnapshot(model.snapshot())).toEqual(before);
    expect(getFamily('direct-logit').task).toBe('classification');
  });
});
