import { map } from 'rxjs';
import type { RecordSource } from './record-source.js';

/**
 * The source with a constant 1 before every record's features, named `intercept` (the
 * pipeline's `schema.intercept`): a model of it learns the intercept as its first weight.
 */
export function withIntercept(source: RecordSource): RecordSource {
  return {
    name: source.name,
    identity: source.identity,
    features: ['intercept', ...source.features],
    records$: source.records$.pipe(map((record) => {
      const x = new Float64Array(record.x.length + 1);
      x[0] = 1;
      x.set(record.x, 1);
      return { ...record, x };
    })),
    pause: () => source.pause(),
    resume: () => source.resume(),
    stop: () => source.stop(),
  };
}
