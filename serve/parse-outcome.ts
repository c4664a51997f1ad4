import { InputError } from '../src/core/input-error.js';
import { labelProblem } from '../src/core/label-problem.js';
import type { Task } from '../src/core/task.js';

/** An outcome a client reports for a prediction: `{"predictionId", "y"}`. */
export interface Outcome {
  readonly predictionId: string;
  readonly y: number;
}

/**
 * A `POST /outcome` body as an {@link Outcome}: `predictionId` a non-empty string, `y` a label in
 * the coding of the family's `task` (0/1 or −1/1 for a binary label, a number for regression, a
 * non-negative integer for counts) within `maxAbsInput`; anything else throws an `InputError` naming
 * the field. Whether the prediction exists is the learner's to tell.
 */
export function parseOutcome(body: { readonly [key: string]: unknown }, task: Task, maxAbsInput: number): Outcome {
  const { predictionId, y } = body;
  if (typeof predictionId !== 'string' || predictionId === '') throw new InputError('predictionId must be a non-empty string', { field: 'predictionId', value: predictionId });
  if (typeof y !== 'number') throw new InputError('y must be a number (the label)', { field: 'y', value: y });
  const problem = labelProblem(task, y, maxAbsInput);
  if (problem !== undefined) throw new InputError(problem, { field: 'y', value: y });
  return { predictionId, y };
}
