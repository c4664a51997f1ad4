import { describe, expect, it } from 'vitest';
import { decodeSnapshot } from '../../src/core/decode-snapshot.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { directFamily, DirectModel } from '../../src/models/direct/index.js';
import { buildDirectGrid } from '../../src/models/direct/grid.js';
import { DirectMixtureElbo } from '../../src/models/direct/mixture-objective.js';
import { DirectElbo } from '../../src/models/direct/objective.js';
import type { DirectGrid, DirectStatistics } from '../../src/models/direct/state.js';
import { accumulateDirect } from '../../src/models/direct/accumulate.js';
import { Rng } from '../../src/rng/rng.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceJson } from '../helpers/reference.js';

const cases: any[] = readReferenceJson('direct', 'enumeration_cases.json').cases;

function setUp(c: any) {
  const grid = buildDirectGrid(c.b, { support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig }, true);
  const stats: DirectStatistics = { b: c.b, gram: new Float64Array(c.b * c.b), phiTy: new Float64Array(c.b), yty: 0, n: 0, records: 0, complete: true };
  accumulateDirect(stats, Float64Array.from(c.Phi.flat()), c.n, Float64Array.from(c.y));
  return { grid, stats, phi: Float64Array.from(c.Phi.flat()), y: Float64Array.from(c.y) };
}

function randomParams(objective: DirectMixtureElbo, seed: number, scale = 1.5): Float64Array {
  const rng = Rng.fromSeed(seed);
  return Float64Array.from({ length: objective.size }, () => scale * rng.normal());
}

/** log p(y | w, σ²) for every w (Kronecker order, weight 1 slowest) at one σ². */
function enumerate(grid: DirectGrid, visit: (codes: number[]) => void): void {
  const codes = new Array<number>(grid.b).fill(0);
  for (;;) {
    visit(codes);
    let j = grid.b - 1;
    while (j >= 0 && ++codes[j] === grid.mbar) codes[j--] = 0;
    if (j < 0) return;
  }
}

/** The exact ELBO of the mixture q at the objective's last evaluation, by enumerating every (w, σ²). */
function exactElbo(o: DirectMixtureElbo, grid: DirectGrid, phi: Float64Array, y: Float64Array, n: number): { elbo: number; entropy: number } {
  const { b, mbar, K, support, logPrior, noiseSupport, logNoisePrior } = grid;
  const r = o.components;
  let elbo = 0;
  let entropy = 0;
  const w = new Float64Array(b);
  enumerate(grid, (codes) => {
    let qw = 0;
    let logPw = 0;
    for (let k = 0; k < r; k++) {
      let p = o.weights[k];
      for (let j = 0; j < b; j++) p *= o.q[(k * b + j) * mbar + codes[j]];
      qw += p;
    }
    for (let j = 0; j < b; j++) { w[j] = support[j * mbar + codes[j]]; logPw += logPrior[j * mbar + codes[j]]; }
    if (qw === 0) return;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      let f = 0;
      for (let j = 0; j < b; j++) f += phi[i * b + j] * w[j];
      sq += (y[i] - f) ** 2;
    }
    entropy -= qw * Math.log(qw);
    for (let k = 0; k < K; k++) {
      const qs = o.noiseQ[k];
      const logLik = -0.5 * n * Math.log(2 * Math.PI * noiseSupport[k]) - sq / (2 * noiseSupport[k]);
      elbo += qw * qs * (logLik + logPw + logNoisePrior[k] - Math.log(qw) - o.logNoiseQ[k]);
    }
  });
  return { elbo, entropy };
}

describe.each(cases.map((c) => [c.name, c]))('DIRECT mixture (Theorem 3) on enumeration case %s', (_, c) => {
  it('with r = 1 and the Taylor centre at q it equals the mean-field ELBO of Theorem 1', () => {
    const { grid, stats } = setUp(c);
    const mixture = new DirectMixtureElbo(grid, stats, 1);
    const meanField = new DirectElbo(grid, stats);
    const logits = Float64Array.from([...c.logits.flat(), ...c.logits_sig]);
    const bm = c.b * grid.mbar;
    const params = new Float64Array(mixture.size);
    params.set(logits.subarray(0, bm), 0);
    params.set(logits.subarray(0, bm), mixture.centreOffset);
    params.set(logits.subarray(bm), mixture.noiseOffset);
    expectClose(mixture.evaluate(params), meanField.evaluate(logits), { abs: 1e-9 }, 'ELBO');
  });

  it.each([2, 3])('with r = %i the bound is ≤ the exact ELBO (enumeration) ≤ log p(y), and exact when the centre is the single distribution', (r) => {
    const { grid, stats, phi, y } = setUp(c);
    const o = new DirectMixtureElbo(grid, stats, r);
    for (let seed = 1; seed <= 4; seed++) {
      const params = randomParams(o, 100 * r + seed);
      const bound = o.evaluate(params);
      const exact = exactElbo(o, grid, phi, y, c.n);
      expect(bound).toBeLessThanOrEqual(exact.elbo + 1e-9);
      expect(exact.elbo).toBeLessThanOrEqual(c.optimisation_reference.log_evidence + 1e-9);
      expect(o.entropyBound).toBeLessThanOrEqual(exact.entropy + 1e-12);
    }
    const same = randomParams(o, 7);
    const bm = c.b * grid.mbar;
    for (let k = 1; k < r; k++) same.copyWithin(k * bm, 0, bm);
    same.copyWithin(o.centreOffset, 0, bm);
    const bound = o.evaluate(same);
    expectClose(bound, exactElbo(o, grid, phi, y, c.n).elbo, { abs: 1e-9 }, 'bound when q = a');
  });

  it('the bound\'s gradient equals central finite differences (1e-6 of max)', () => {
    const { grid, stats } = setUp(c);
    const o = new DirectMixtureElbo(grid, stats, 3);
    const params = randomParams(o, 11, 1);
    const gradient = new Float64Array(o.size);
    o.evaluate(params, gradient);
    const fd = new Float64Array(o.size);
    const h = 1e-6;
    for (let i = 0; i < o.size; i++) {
      const p = params.slice();
      p[i] += h;
      const up = o.evaluate(p);
      p[i] -= 2 * h;
      fd[i] = (up - o.evaluate(p)) / (2 * h);
    }
    expectClose(gradient, fd, { absOfMax: 1e-6 }, 'gradient');
  });
});

describe('eq. (11): the stochastic entropy gradient', () => {
  it('is unbiased: its average over seeds equals the exact entropy gradient by enumeration within 4 standard errors', () => {
    const grid = buildDirectGrid(2, { supportSize: 3, noiseSupport: [1] }, true);
    const stats: DirectStatistics = { b: 2, gram: Float64Array.of(2, 0.5, 0.5, 1), phiTy: Float64Array.of(1, -1), yty: 3, n: 4, records: 4, complete: true };
    const o = new DirectMixtureElbo(grid, stats, 2);
    const params = randomParams(o, 5, 1);
    const entropy = (p: Float64Array): number => {
      o.evaluate(p);
      let h = 0;
      enumerate(grid, (codes) => {
        let qw = 0;
        for (let k = 0; k < 2; k++) qw += o.weights[k] * o.q[(k * 2) * 3 + codes[0]] * o.q[(k * 2 + 1) * 3 + codes[1]];
        h -= qw * Math.log(qw);
      });
      return h;
    };
    const exact = new Float64Array(o.centreOffset);
    for (let i = 0; i < exact.length; i++) {
      const p = params.slice();
      p[i] += 1e-6;
      const up = entropy(p);
      p[i] -= 2e-6;
      exact[i] = (up - entropy(p)) / 2e-6;
    }
    const seeds = 400;
    const sum = new Float64Array(exact.length);
    const sumSq = new Float64Array(exact.length);
    const g = new Float64Array(o.size);
    o.evaluate(params);
    for (let seed = 1; seed <= seeds; seed++) {
      g.fill(0);
      o.addEntropyGradient(g, Rng.fromSeed(seed), 50);
      for (let i = 0; i < exact.length; i++) { sum[i] += g[i]; sumSq[i] += g[i] * g[i]; }
    }
    for (let i = 0; i < exact.length; i++) {
      const mean = sum[i] / seeds;
      const se = Math.sqrt(Math.max(0, sumSq[i] / seeds - mean * mean) / seeds);
      expect(Math.abs(mean - exact[i]), `component ${i}: mean ${mean}, exact ${exact[i]}, se ${se}`).toBeLessThanOrEqual(4 * se + 1e-9);
    }
    const informative = exact.some((v, i) => Math.abs(v) > 1e-3 && Math.abs(sum[i] / seeds - v) < 0.5 * Math.abs(v));
    expect(informative).toBe(true);
  });
});

describe('direct with components: r', () => {
  const caseD = cases.find((k) => k.name.startsWith('D'));
  const gridOf = (c: any) => ({ support: c.Wbar, priorProbs: c.prior_P, noiseSupport: c.sig2, noisePriorProbs: c.prior_psig });
  const batchOf = (c: any) => ({ x: Float64Array.from(c.Phi.flat()), y: Float64Array.from(c.y), n: c.n, d: c.b });

  it.each(['stochastic', 'bound'] as const)('case D (multimodal): the %s mixture fit reaches a bound ≥ the mean-field ELBO it starts from, ≤ the exact ELBO ≤ log p(y)', (entropy) => {
    for (const caviSweeps of [0, 200]) {
      const meanField = directFamily.create(caseD.b, { ...gridOf(caseD), caviSweeps });
      meanField.update(batchOf(caseD));
      const mixture = directFamily.create(caseD.b, { ...gridOf(caseD), caviSweeps, components: 3, mixtureEntropy: entropy, mixtureSteps: 300, entropySamples: 500 });
      mixture.update(batchOf(caseD));
      const p = mixture.posterior();
      expect(p.components.weights).toHaveLength(3);
      expect(p.elbo).toBeGreaterThanOrEqual(meanField.posterior().elbo - 1e-6);
      if (entropy === 'bound' && caviSweeps === 0) expect(p.elbo).toBeGreaterThan(meanField.posterior().elbo + 1e-4);
      expect(p.elbo).toBeLessThanOrEqual(caseD.optimisation_reference.log_evidence + 1e-9);
    }
  });

  it('predictive moments and draws of a mixture are those of Σ_k π_k q_k (enumeration), snapshot → bytes → restore is bit-exact', () => {
    const c = cases.find((k) => k.name.startsWith('A'));
    const model = directFamily.create(c.b, { ...gridOf(c), components: 2, mixtureSteps: 50, entropySamples: 200, seed: 3 });
    model.update(batchOf(c));
    const p = model.posterior();
    const { b, mbar, support } = model.grid;
    const phiTest = Float64Array.from(c.Phi_test.flat());
    for (let t = 0; t < 5; t++) {
      let m1 = 0;
      let m2 = 0;
      const codes = new Array<number>(b).fill(0);
      for (;;) {
        let qw = 0;
        for (let k = 0; k < 2; k++) {
          let pk = p.components.weights[k];
          for (let j = 0; j < b; j++) pk *= p.components.probs[(k * b + j) * mbar + codes[j]];
          qw += pk;
        }
        let f = 0;
        for (let j = 0; j < b; j++) f += phiTest[t * b + j] * support[j * mbar + codes[j]];
        m1 += qw * f;
        m2 += qw * f * f;
        let j = b - 1;
        while (j >= 0 && ++codes[j] === mbar) codes[j--] = 0;
        if (j < 0) break;
      }
      const moments = model.moments(phiTest, t * b);
      expectClose(moments.mean, m1, { abs: 1e-10 }, 'mean');
      expectClose(moments.varianceF, m2 - m1 * m1, { abs: 1e-10 }, 'Var f');
      expectClose(moments.variance, m2 - m1 * m1 + p.expectedNoise, { abs: 1e-10 }, 'Var y');
    }
    const rng = Rng.fromSeed(9);
    const mean = new Float64Array(b);
    const draws = 20000;
    for (let i = 0; i < draws; i++) {
      const w = model.sampleCodes(rng).decode();
      for (let j = 0; j < b; j++) mean[j] += w[j] / draws;
    }
    for (let j = 0; j < b; j++) expect(Math.abs(mean[j] - p.mean[j])).toBeLessThan(5 * Math.sqrt(p.variance[j] / draws) + 1e-12);
    const bytes = encodeSnapshot(model.snapshot());
    const restored = directFamily.restore(decodeSnapshot(bytes).snapshot) as DirectModel;
    expect(encodeSnapshot(restored.snapshot())).toEqual(bytes);
    expect(restored.posterior().elbo).toBe(p.elbo);
    expect(restored.moments(phiTest, 0)).toEqual(model.moments(phiTest, 0));
    const more = { x: Float64Array.from(c.Phi.flat().slice(0, 10 * b)), y: Float64Array.from(c.y.slice(0, 10)), n: 10, d: b };
    model.update(more);
    restored.update(more);
    expect(Array.from(restored.posterior().components.probs)).toEqual(Array.from(model.posterior().components.probs));
  });

  it('refuses bad mixture options with a ConfigError naming the field', () => {
    expect(() => directFamily.create(2, { components: 0 })).toThrow(/components/);
    expect(() => directFamily.create(2, { components: 2, mixtureEntropy: 'exact' as never })).toThrow(/mixtureEntropy/);
    expect(() => directFamily.create(2, { components: 2, entropySamples: 1.5 })).toThrow(/entropySamples/);
  });
});
