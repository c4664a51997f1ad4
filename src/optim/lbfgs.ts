import type { ObjectiveFunction } from './objective-function.js';
import { wolfeLineSearch } from './wolfe-line-search.js';

/** Options of {@link minimizeLbfgs}. */
export interface LbfgsOptions {
  /** Maximum iterations (line searches); default 1000. */
  readonly maxIterations?: number;
  /** Stop when |f_{k−1} − f_k| ≤ relativeTolerance·max(|f_k|, |f_{k−1}|, 1); default 1e-9. */
  readonly relativeTolerance?: number;
  /** Stop when max|∇f| ≤ gradientTolerance; default 1e-10. */
  readonly gradientTolerance?: number;
  /** Number of correction pairs kept; default 10. */
  readonly memory?: number;
}

/** Outcome of {@link minimizeLbfgs}. */
export interface LbfgsResult {
  readonly x: Float64Array;
  readonly value: number;
  readonly gradient: Float64Array;
  readonly iterations: number;
  readonly evaluations: number;
  readonly converged: boolean;
  readonly reason: 'relative-change' | 'gradient' | 'max-iterations' | 'line-search';
}

/**
 * Limited-memory BFGS minimisation (Nocedal & Wright, Algorithm 7.4 two-loop recursion, 7.5) with a
 * strong-Wolfe line search; the first step is scaled to unit length. Works in place on flat
 * arrays; `x0` is not modified. Stops on the relative objective change, the gradient norm, the
 * iteration cap, or a line search that cannot make progress.
 */
export function minimizeLbfgs(fn: ObjectiveFunction, x0: Float64Array, options: LbfgsOptions = {}): LbfgsResult {
  const n = x0.length;
  const maxIterations = options.maxIterations ?? 1000;
  const relTol = options.relativeTolerance ?? 1e-9;
  const gradTol = options.gradientTolerance ?? 1e-10;
  const m = options.memory ?? 10;
  const s = Array.from({ length: m }, () => new Float64Array(n));
  const yv = Array.from({ length: m }, () => new Float64Array(n));
  const rho = new Float64Array(m);
  const alpha = new Float64Array(m);
  let stored = 0;
  let head = 0;
  let x = x0.slice();
  let g = new Float64Array(n);
  let f = fn(x, g);
  let evaluations = 1;
  let xNext = new Float64Array(n);
  let gNext = new Float64Array(n);
  const direction = new Float64Array(n);
  const maxAbs = (v: Float64Array): number => v.reduce((acc, e) => Math.max(acc, Math.abs(e)), 0);
  if (!Number.isFinite(f)) return { x, value: f, gradient: g, iterations: 0, evaluations, converged: false, reason: 'line-search' };
  if (maxAbs(g) <= gradTol) return { x, value: f, gradient: g, iterations: 0, evaluations, converged: true, reason: 'gradient' };
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    for (let i = 0; i < n; i++) direction[i] = -g[i];
    for (let k = 0; k < stored; k++) {
      const j = (head - 1 - k + m) % m;
      let dotSq = 0;
      for (let i = 0; i < n; i++) dotSq += s[j][i] * direction[i];
      alpha[j] = rho[j] * dotSq;
      for (let i = 0; i < n; i++) direction[i] -= alpha[j] * yv[j][i];
    }
    if (stored > 0) {
      const j = (head - 1 + m) % m;
      let sy = 0;
      let yy = 0;
      for (let i = 0; i < n; i++) { sy += s[j][i] * yv[j][i]; yy += yv[j][i] * yv[j][i]; }
      const gamma = sy / yy;
      for (let i = 0; i < n; i++) direction[i] *= gamma;
    }
    for (let k = stored - 1; k >= 0; k--) {
      const j = (head - 1 - k + m) % m;
      let dotY = 0;
      for (let i = 0; i < n; i++) dotY += yv[j][i] * direction[i];
      const beta = rho[j] * dotY;
      for (let i = 0; i < n; i++) direction[i] += (alpha[j] - beta) * s[j][i];
    }
    let slope = 0;
    for (let i = 0; i < n; i++) slope += g[i] * direction[i];
    if (!(slope < 0)) {
      stored = 0;
      for (let i = 0; i < n; i++) direction[i] = -g[i];
      slope = 0;
      for (let i = 0; i < n; i++) slope -= g[i] * g[i];
    }
    const initialStep = stored === 0 ? Math.min(1, 1 / Math.sqrt(-slope)) : 1;
    const search = wolfeLineSearch(fn, x, f, slope, direction, xNext, gNext, initialStep);
    evaluations += search.evaluations;
    if (!search.ok && !(search.value < f)) return { x, value: f, gradient: g, iterations: iteration, evaluations, converged: false, reason: 'line-search' };
    let sy = 0;
    for (let i = 0; i < n; i++) {
      s[head][i] = xNext[i] - x[i];
      yv[head][i] = gNext[i] - g[i];
      sy += s[head][i] * yv[head][i];
    }
    if (sy > 1e-300) {
      rho[head] = 1 / sy;
      head = (head + 1) % m;
      stored = Math.min(stored + 1, m);
    }
    const previous = f;
    f = search.value;
    [x, xNext] = [xNext, x];
    [g, gNext] = [gNext, g];
    if (maxAbs(g) <= gradTol) return { x, value: f, gradient: g, iterations: iteration, evaluations, converged: true, reason: 'gradient' };
    if (Math.abs(previous - f) <= relTol * Math.max(Math.abs(f), Math.abs(previous), 1)) {
      return { x, value: f, gradient: g, iterations: iteration, evaluations, converged: true, reason: 'relative-change' };
    }
    if (!search.ok) return { x, value: f, gradient: g, iterations: iteration, evaluations, converged: false, reason: 'line-search' };
  }
  return { x, value: f, gradient: g, iterations: maxIterations, evaluations, converged: false, reason: 'max-iterations' };
}
