import { describe, expect, it } from 'vitest';
import { Adam } from '../../src/optim/adam.js';
import { minimizeLbfgs } from '../../src/optim/lbfgs.js';
import { robbinsMonroStep } from '../../src/optim/robbins-monro-step.js';

function rosenbrock(x: Float64Array, g: Float64Array): number {
  let f = 0;
  g.fill(0);
  for (let i = 0; i < x.length - 1; i++) {
    const a = x[i + 1] - x[i] * x[i];
    const b = 1 - x[i];
    f += 100 * a * a + b * b;
    g[i] += -400 * x[i] * a - 2 * b;
    g[i + 1] += 200 * a;
  }
  return f;
}

describe('optimisers', () => {
  it('L-BFGS finds the Rosenbrock minimum in 10 dimensions', () => {
    const start = new Float64Array(10).fill(-1.2);
    const result = minimizeLbfgs(rosenbrock, start, { relativeTolerance: 0, gradientTolerance: 1e-9, maxIterations: 2000 });
    expect(result.converged).toBe(true);
    for (const v of result.x) expect(v).toBeCloseTo(1, 6);
    expect(start[0]).toBe(-1.2);
  });

  it('L-BFGS solves a quadratic exactly and stops on the relative change', () => {
    const diag = [1, 10, 100, 1000];
    const fn = (x: Float64Array, g: Float64Array) => {
      let f = 0;
      for (let i = 0; i < 4; i++) { f += 0.5 * diag[i] * (x[i] - i) ** 2; g[i] = diag[i] * (x[i] - i); }
      return f;
    };
    const result = minimizeLbfgs(fn, new Float64Array(4), { relativeTolerance: 1e-14 });
    for (let i = 0; i < 4; i++) expect(result.x[i]).toBeCloseTo(i, 6);
    expect(result.value).toBeLessThan(1e-10);
  });

  it('Adam converges on a quadratic and its state round-trips', () => {
    const adam = new Adam(2, { learningRate: 0.05 });
    const p = Float64Array.of(3, -2);
    const g = new Float64Array(2);
    for (let i = 0; i < 2000; i++) { g[0] = 2 * (p[0] - 1); g[1] = 2 * (p[1] + 1); adam.step(p, g); }
    expect(p[0]).toBeCloseTo(1, 3);
    expect(p[1]).toBeCloseTo(-1, 3);
    const copy = Adam.fromState(adam.state());
    const a = p.slice();
    const b = p.slice();
    adam.step(a, Float64Array.of(0.3, -0.2));
    copy.step(b, Float64Array.of(0.3, -0.2));
    expect(Array.from(b)).toEqual(Array.from(a));
  });

  it('Robbins–Monro steps decrease as (t + τ)^−κ', () => {
    expect(robbinsMonroStep(1, 1, 0.75)).toBeCloseTo(2 ** -0.75, 15);
    expect(robbinsMonroStep(10, 0, 1)).toBe(0.1);
  });
});
