import { describe, expect, it } from 'vitest';
import { viperBound, viperBoundBatch } from '../../src/likelihoods/softplus-gaussian-bound.js';
import { readReferenceJson } from '../helpers/reference.js';

interface GridRecord { v: number; t: number; l: number; eta: number; deta_dv: number; deta_dt: number; exact: number; rel_gap: number; naive_double: { status: string } }
const grid = readReferenceJson<{ records: GridRecord[] }>('viper', 'bound_grid.json');

describe('viperBound against bound_grid.json (README tolerances: η rel 1e-12, ∂ϑ abs 1e-12, ∂τ abs 1e-10)', () => {
  it('matches η_l and both partials at all 240 grid points', () => {
    expect(grid.records).toHaveLength(240);
    const gradient = { dTheta: Number.NaN, dTau: Number.NaN };
    for (const r of grid.records) {
      const where = `v=${r.v}, t=${r.t}, l=${r.l}`;
      const eta = viperBound(r.v, r.t, r.l, gradient);
      expect(Math.abs(eta - r.eta), `η at ${where}`).toBeLessThanOrEqual(1e-12 * Math.abs(r.eta));
      expect(Math.abs(gradient.dTheta - r.deta_dv), `∂η/∂ϑ at ${where}`).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(gradient.dTau - r.deta_dt), `∂η/∂τ at ${where}`).toBeLessThanOrEqual(1e-10);
    }
  });

  it('is finite and accurate where naive evaluation overflows (64 records with k²τ²/2 > 709)', () => {
    const failing = grid.records.filter((r) => r.naive_double.status !== 'ok' && r.naive_double.status !== 'inaccurate');
    expect(failing.length).toBeGreaterThanOrEqual(64);
    for (const r of failing) expect(Math.abs(viperBound(r.v, r.t, r.l) - r.eta)).toBeLessThanOrEqual(1e-12 * Math.abs(r.eta));
  });

  it('lies above the exact E[softplus] everywhere on the grid (strictly where the gap exceeds double resolution)', () => {
    for (const r of grid.records) {
      const eta = viperBound(r.v, r.t, r.l);
      if (r.rel_gap > 1e-13) expect(eta, `v=${r.v}, t=${r.t}, l=${r.l}`).toBeGreaterThan(r.exact);
      else expect(eta).toBeGreaterThanOrEqual(r.exact * (1 - 1e-15));
    }
  });

  it('the batch form equals the scalar form element by element', () => {
    const rows = grid.records.filter((r) => r.l === 12);
    const theta = Float64Array.from(rows, (r) => r.v);
    const tau = Float64Array.from(rows, (r) => r.t);
    const out = new Float64Array(rows.length);
    const dTheta = new Float64Array(rows.length);
    const dTau = new Float64Array(rows.length);
    viperBoundBatch(theta, tau, 12, out, dTheta, dTau);
    const g = { dTheta: 0, dTau: 0 };
    rows.forEach((r, i) => {
      expect(out[i]).toBe(viperBound(r.v, r.t, 12, g));
      expect(dTheta[i]).toBe(g.dTheta);
      expect(dTau[i]).toBe(g.dTau);
    });
  });
});

describe('viperBound limits', () => {
  it('at τ = 0 is the truncated series of softplus(ϑ), with ∂η/∂τ = 0 away from ϑ = 0', () => {
    const g = { dTheta: 0, dTau: 0 };
    let series = 0;
    for (let k = 1; k <= 23; k++) series += ((k & 1 ? 1 : -1) * Math.exp(-3 * k)) / k;
    expect(viperBound(3, 0, 12, g)).toBeCloseTo(3 + series, 14);
    expect(g.dTau).toBe(0);
    expect(viperBound(-3, 0, 12, g)).toBeCloseTo(series, 14);
    let log2Partial = 0;
    for (let k = 1; k <= 23; k++) log2Partial += (k & 1 ? 1 : -1) / k;
    expect(viperBound(0, 0, 12)).toBeCloseTo(log2Partial, 14);
  });

  it('stays finite for extreme ϑ and τ', () => {
    const g = { dTheta: 0, dTau: 0 };
    for (const [theta, tau] of [[1e6, 1e3], [-1e6, 1e3], [0, 1e4], [40, 1e-8], [-40, 1e-8], [700, 50]]) {
      const eta = viperBound(theta, tau, 12, g);
      expect(Number.isFinite(eta) && Number.isFinite(g.dTheta) && Number.isFinite(g.dTau), `(${theta}, ${tau})`).toBe(true);
      expect(eta).toBeGreaterThanOrEqual(Math.max(theta, 0));
    }
  });
});
