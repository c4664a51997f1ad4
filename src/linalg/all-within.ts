import { denseKernels } from './dense-kernels.js';

/** From this many values the check runs in the dense kernels (below, copying them in costs more than the JavaScript scan). */
const KERNEL_FROM = 1024;

/**
 * Whether the first `length` values are all within ±max (|v| ≤ max; NaN is not). From {@link KERNEL_FROM} values, on
 * a copy at the start of the dense kernels' scratch, eight values a step with f64x2 compares (wasm/dense-kernels.ts
 * `allWithin`); with `stage` that copy is left there for the next kernel that takes `values` (`DenseKernels.stage`:
 * a batch's X is then copied into the module once, for the check and for `gramAccumulateUpper`), and the caller
 * calls `denseKernels.unstage()` before its array may change. Below, one flat JavaScript pass, four values a step,
 * two comparisons a value instead of a `Math.abs`.
 */
export function allWithin(values: Float64Array, length: number, max: number, stage = false): boolean {
  if (length >= KERNEL_FROM) {
    const at = stage ? denseKernels.stage(values, length) : denseKernels.reserve(length);
    if (!stage) denseKernels.write(at, values, length);
    return denseKernels.kernels.allWithin(at * 8, length, max) !== 0;
  }
  const min = -max;
  let k = 0;
  for (; k + 4 <= length; k += 4) {
    const v0 = values[k];
    const v1 = values[k + 1];
    const v2 = values[k + 2];
    const v3 = values[k + 3];
    if (!(v0 <= max && v0 >= min && v1 <= max && v1 >= min && v2 <= max && v2 >= min && v3 <= max && v3 >= min)) return false;
  }
  for (; k < length; k++) {
    const v = values[k];
    if (!(v <= max && v >= min)) return false;
  }
  return true;
}
