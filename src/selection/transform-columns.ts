import { ConfigError } from '../core/config-error.js';
import type { FeatureTransform } from './feature-transform.js';

/** The columns a transform reads: its own list (checked: integers in [0, d), no repeats) or all d. */
export function transformColumns(transform: FeatureTransform, d: number): readonly number[] {
  if (transform.type === 'identity') return Array.from({ length: d }, (_, j) => j);
  const { columns } = transform;
  if (columns === undefined) {
    if (transform.type === 'columns') throw new ConfigError('a columns transform lists its columns', { field: 'features.columns' });
    return Array.from({ length: d }, (_, j) => j);
  }
  if (!Array.isArray(columns) || columns.length === 0) throw new ConfigError('must be a non-empty array of column indices', { field: 'features.columns', value: columns });
  const seen = new Set<number>();
  for (const c of columns) {
    if (!Number.isInteger(c) || c < 0 || c >= d) throw new ConfigError(`must hold integers in [0, ${d})`, { field: 'features.columns', value: c });
    if (seen.has(c)) throw new ConfigError('lists a column twice', { field: 'features.columns', value: c });
    seen.add(c);
  }
  return columns;
}
