import { defer, filter, map, type OperatorFunction } from 'rxjs';
import { ConfigError } from '../src/core/config-error.js';
import { InputError } from '../src/core/input-error.js';
import { dot } from '../src/linalg/dot.js';
import type { OnlineModel } from '../src/core/online-model.js';
import { ShapeError } from '../src/core/shape-error.js';
import { Rng } from '../src/rng/rng.js';
import type { BadRecordSink } from './bad-record.js';
import type { ThompsonDecision } from './thompson-decision.js';

/** Options of {@link thompson}. */
export interface ThompsonOptions {
  /** Seed of the sampling generator; each subscription starts from it, so decisions replay. */
  readonly seed: number;
  /** Receives contexts that cannot be scored (wrong width, non-finite). */
  readonly badRecords?: BadRecordSink;
}

/**
 * Thompson sampling over arms whose rewards follow a linear-predictor family: for each context x,
 * draws θ from every arm's current posterior (`model.sample`) and picks the arm with the largest
 * θ·x (ties go to the first). The arms are live models — whatever updates them between contexts
 * is seen. A context that cannot be scored goes to `badRecords`; errors and completion pass through.
 */
export function thompson<T extends { readonly x: Float64Array; readonly row?: number }>(arms: ReadonlyMap<string, OnlineModel>, options: ThompsonOptions): OperatorFunction<T, ThompsonDecision<T>> {
  const ids = [...arms.keys()];
  const models = [...arms.values()];
  if (models.length === 0) throw new ConfigError('thompson() needs at least one arm', { field: 'arms' });
  const dim = models[0].dim;
  for (const [i, model] of models.entries()) {
    if (model.dim !== dim) throw new ConfigError(`arm "${ids[i]}" has ${model.dim} features, the first arm ${dim}`, { field: 'arms', value: ids[i] });
  }
  if (!Number.isSafeInteger(options.seed)) throw new ConfigError('seed must be a safe integer', { field: 'seed', value: options.seed });
  return (source) => defer(() => {
    const rng = Rng.fromSeed(options.seed);
    const theta = new Float64Array(dim);
    const usable = (context: T): boolean => {
      let error: Error | undefined;
      if (context.x.length !== dim) error = new ShapeError(`context has ${context.x.length} features but the arms have ${dim}`, { row: context.row, field: 'x', value: context.x.length });
      else {
        const j = context.x.findIndex((v) => !Number.isFinite(v));
        if (j >= 0) error = new InputError('feature is not finite', { row: context.row, column: j + 1, value: context.x[j] });
      }
      if (error !== undefined) options.badRecords?.next({ record: context, reason: error.message, error });
      return error === undefined;
    };
    return source.pipe(
      filter(usable),
      map((context) => {
        const draws = new Float64Array(models.length);
        let best = 0;
        for (let a = 0; a < models.length; a++) {
          const sample = models[a].sample(rng, theta);
          if (sample.length !== dim) throw new ConfigError(`arm "${ids[a]}" samples ${sample.length} parameters, not ${dim} weights: thompson() needs a linear-predictor family`, { field: 'arms', value: ids[a] });
          draws[a] = dot(sample, context.x, dim);
          if (draws[a] > draws[best]) best = a;
        }
        return { context, arm: ids[best], index: best, draws };
      }),
    );
  });
}
