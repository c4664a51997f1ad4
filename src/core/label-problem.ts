import { outOfRangeReason } from './out-of-range-reason.js';
import type { Task } from './task.js';

/**
 * Why `y` is not a label of `task` (undefined when it is): finite for regression, 0/1 or ±1 for
 * classification, a non-negative integer for counts, and |y| at most `maxAbsInput`.
 */
export function labelProblem(task: Task, y: number, maxAbsInput: number): string | undefined {
  if (!Number.isFinite(y)) return 'label is not finite';
  if (task === 'classification' && y !== 0 && y !== 1 && y !== -1) return 'binary label must be 0/1 or -1/1';
  if (Math.abs(y) > maxAbsInput) return outOfRangeReason('label', maxAbsInput);
  if (task === 'count' && !(Number.isInteger(y) && y >= 0)) return 'count label must be a non-negative integer';
  return undefined;
}
