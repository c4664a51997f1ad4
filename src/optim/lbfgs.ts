import type { ObjectiveFunction } from './objective-function.js';
import { dot } from '../linalg/dot.js';
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
 * One fused pass of the two-loop recursion: y ← (y + alpha·x)·scale element by element, returning
 * Σᵢ z_i·y_i of the updated y (in order, as the separate axpy, scaling and dot would).
 */
function axpyScaleDot(alpha: number, x: Float64Array, y: Float64Array, scale: number, z: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = (y[i] + alpha * x[i]) * scale;
    y[i] = v;
    sum += z[i] * v;
  }
  return sum;
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
  /** sᵀy / yᵀy of the newest pair: the scaling of the initial inverse Hessian (eq. 7.20). */
  let gamma = 1;
  let x = x0.slice();
  let g = new Float64Array(n);
  let f = fn(x, g);
  let evaluations = 1;
  let xNext = new Float64Array(n);
  let gNext = new Float64Array(n);
  const direction = new Float64Array(n);
  const maxAbs = (v: Float64Array): number => {
    let largest = 0;
    for (let i = 0; i < v.length; i++) largest = Math.max(largest, Math.abs(v[i]));
    return largest;
  };
  if (!Number.isFinite(f)) return { x, value: f, gradient: g, iterations: 0, evaluations, converged: false, reason: 'line-search' };
  if (maxAbs(g) <= gradTol) return { x, value: f, gradient: g, iterations: 0, evaluations, converged: true, reason: 'gradient' };
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    for (let i = 0; i < n; i++) direction[i] = -g[i];
    let slope: number;
    if (stored === 0) {
      slope = dot(g, direction, n);
    } else {
      let j = (head - 1 + m) % m;
      alpha[j] = rho[j] * dot(s[j], direction, n);
      for (let k = 1; k < stored; k++) {
        const next = (head - 1 - k + m) % m;
        alpha[next] = rho[next] * axpyScaleDot(-alpha[j], yv[j], direction, 1, s[next], n);
        j = next;
      }
      let dotY = axpyScaleDot(-alpha[j], yv[j], direction, gamma, yv[j], n);
      for (let k = stored - 1; k > 0; k--) {
        const next = (head - k + m) % m;
        dotY = axpyScaleDot(alpha[j] - rho[j] * dotY, s[j], direction, 1, yv[next], n);
        j = next;
      }
      slope = axpyScaleDot(alpha[j] - rho[j] * dotY, s[j], direction, 1, g, n);
    }
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
    const sHead = s[head];
    const yHead = yv[head];
    let sy = 0;
    let yy = 0;
    for (let i = 0; i < n; i++) {
      const si = xNext[i] - x[i];
      const yi = gNext[i] - g[i];
      sHead[i] = si;
      yHead[i] = yi;
      sy += si * yi;
      yy += yi * yi;
    }
    if (sy > 1e-300) {
      rho[head] = 1 / sy;
      gamma = sy / yy;
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
