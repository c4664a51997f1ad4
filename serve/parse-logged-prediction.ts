import { InputError } from '../src/core/input-error.js';
import { ShapeError } from '../src/core/shape-error.js';
import type { LoggedPrediction } from './logged-prediction.js';

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A predictions-topic value (parsed JSON) as a {@link LoggedPrediction} of a model of family
 * `family` with `dim` features: `predictionId` a non-empty string, `x` `dim` finite numbers (another
 * length throws a `ShapeError`: dead letter `wrong-width`), `predictedAt` ms since the epoch,
 * `family` (when given) the model's. Anything else throws an `InputError` naming the field (dead
 * letter `bad-shape`). The prediction's own fields (`mean`, `variance`, `interval`, …) are kept as
 * logged (`null` where the predictive has no finite value).
 */
export function parseLoggedPrediction(body: unknown, dim: number, family: string): LoggedPrediction {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError('a logged prediction must be a JSON object {"predictionId", "x", "predictedAt", …}', { field: 'body' });
  const r = body as { readonly [key: string]: unknown };
  const { predictionId, x, predictedAt } = r;
  if (typeof predictionId !== 'string' || predictionId === '') throw new InputError('predictionId must be a non-empty string', { field: 'predictionId', value: predictionId });
  if (!Array.isArray(x) || !x.every(finite)) throw new InputError(`x of prediction ${predictionId} must be an array of finite numbers`, { field: 'x' });
  if (x.length !== dim) throw new ShapeError(`x of prediction ${predictionId} has ${x.length} features, the model ${dim}`, { field: 'x' });
  if (!finite(predictedAt)) throw new InputError(`predictedAt of prediction ${predictionId} must be a time in ms since the epoch`, { field: 'predictedAt', value: predictedAt });
  if (r.family !== undefined && r.family !== family) throw new InputError(`prediction ${predictionId} was made by a ${String(r.family)} model, the learner's is ${family}`, { field: 'family', value: r.family });
  return r as unknown as LoggedPrediction;
}
