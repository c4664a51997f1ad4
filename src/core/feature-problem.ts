import { outOfRangeReason } from './out-of-range-reason.js';

/** Why `value` is not a usable feature (undefined when it is): not finite, or |value| beyond `maxAbsInput`. */
export function featureProblem(value: number, maxAbsInput: number): string | undefined {
  if (!Number.isFinite(value)) return 'feature is not finite';
  if (Math.abs(value) > maxAbsInput) return outOfRangeReason('feature', maxAbsInput);
  return undefined;
}
