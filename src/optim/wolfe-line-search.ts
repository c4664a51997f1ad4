import { axpy } from '../linalg/axpy.js';
import { dot } from '../linalg/dot.js';
import type { ObjectiveFunction } from './objective-function.js';

/** Result of {@link wolfeLineSearch}: the accepted step, f and the evaluations spent. */
export interface LineSearchResult {
  step: number;
  value: number;
  evaluations: number;
  /** False when no step satisfying the Wolfe conditions was found (the best point seen is returned). */
  ok: boolean;
}

function cubicMinimizer(a: number, fa: number, ga: number, b: number, fb: number, gb: number): number {
  const d1 = ga + gb - (3 * (fa - fb)) / (a - b);
  const square = d1 * d1 - ga * gb;
  if (!(square >= 0)) return Number.NaN;
  const d2 = Math.sign(b - a) * Math.sqrt(square);
  return b - (b - a) * ((gb + d2 - d1) / (gb - ga + 2 * d2));
}

/**
 * Strong-Wolfe line search along `direction` from `x0` (Nocedal & Wright, Algorithms 3.5 and 3.6,
 * with safeguarded cubic interpolation in the zoom phase). On return `x` and `gradient` hold the
 * accepted point and its gradient. `f0` and `slope0` = ∇f(x0)ᵀdirection (< 0) describe the start.
 */
export function wolfeLineSearch(fn: ObjectiveFunction, x0: Float64Array, f0: number, slope0: number, direction: Float64Array,
  x: Float64Array, gradient: Float64Array, initialStep = 1, c1 = 1e-4, c2 = 0.9, maxEvaluations = 40): LineSearchResult {
  const n = x0.length;
  let evaluations = 0;
  const evaluate = (step: number): { f: number; slope: number } => {
    x.set(x0);
    axpy(step, direction, x, n);
    const f = fn(x, gradient);
    evaluations++;
    return { f, slope: dot(gradient, direction, n) };
  };
  let bestStep = 0;
  let bestValue = f0;
  const remember = (step: number, f: number): void => {
    if (f < bestValue) { bestValue = f; bestStep = step; }
  };
  const finish = (step: number, value: number, ok: boolean): LineSearchResult => {
    if (!ok) {
      const { f } = evaluate(bestStep);
      return { step: bestStep, value: f, evaluations, ok };
    }
    return { step, value, evaluations, ok };
  };
  const zoom = (loStep: number, loF: number, loSlope: number, hiStep: number, hiF: number, hiSlope: number): LineSearchResult => {
    while (evaluations < maxEvaluations) {
      let step = cubicMinimizer(loStep, loF, loSlope, hiStep, hiF, hiSlope);
      const low = Math.min(loStep, hiStep);
      const high = Math.max(loStep, hiStep);
      const margin = 0.1 * (high - low);
      if (!Number.isFinite(step) || step < low + margin || step > high - margin) step = 0.5 * (loStep + hiStep);
      const { f, slope } = evaluate(step);
      if (Number.isFinite(f)) remember(step, f);
      if (!Number.isFinite(f) || f > f0 + c1 * step * slope0 || f >= loF) {
        hiStep = step; hiF = Number.isFinite(f) ? f : Infinity; hiSlope = Number.isFinite(slope) ? slope : 0;
      } else {
        if (Math.abs(slope) <= -c2 * slope0) return { step, value: f, evaluations, ok: true };
        if (slope * (hiStep - loStep) >= 0) { hiStep = loStep; hiF = loF; hiSlope = loSlope; }
        loStep = step; loF = f; loSlope = slope;
      }
      if (Math.abs(hiStep - loStep) <= 1e-16 * Math.max(1, Math.abs(loStep))) break;
    }
    return finish(loStep, loF, false);
  };
  let previousStep = 0;
  let previousF = f0;
  let previousSlope = slope0;
  let step = initialStep;
  for (let i = 0; evaluations < maxEvaluations; i++) {
    const { f, slope } = evaluate(step);
    if (!Number.isFinite(f)) {
      step = 0.5 * (previousStep + step);
      continue;
    }
    remember(step, f);
    if (f > f0 + c1 * step * slope0 || (i > 0 && f >= previousF)) return zoom(previousStep, previousF, previousSlope, step, f, slope);
    if (Math.abs(slope) <= -c2 * slope0) return { step, value: f, evaluations, ok: true };
    if (slope >= 0) return zoom(step, f, slope, previousStep, previousF, previousSlope);
    previousStep = step; previousF = f; previousSlope = slope;
    step *= 2;
  }
  return finish(previousStep, previousF, false);
}
