import { ConfigError } from '../core/config-error.js';
import type { FeatureTransform } from './feature-transform.js';
import { transformColumns } from './transform-columns.js';

/**
 * The number of features a transform makes of records of d columns, after checking it (its type, its
 * columns, a non-negative integer degree, finite centres of the right length, a positive lengthscale);
 * a bad transform throws `ConfigError`.
 */
export function featureTransformWidth(transform: FeatureTransform, d: number): number {
  if (typeof transform !== 'object' || transform === null) throw new ConfigError('must be an object with a type', { field: 'features', value: transform });
  switch (transform.type) {
    case 'identity':
      return d;
    case 'columns':
      return transformColumns(transform, d).length;
    case 'polynomial': {
      const { degree } = transform;
      if (!Number.isSafeInteger(degree) || degree < 0) throw new ConfigError('must be a non-negative integer', { field: 'features.degree', value: degree });
      return 1 + degree * transformColumns(transform, d).length;
    }
    case 'rbf': {
      const width = transformColumns(transform, d).length;
      const { centres, lengthscale } = transform;
      if (typeof lengthscale !== 'number' || !(lengthscale > 0) || !Number.isFinite(lengthscale)) throw new ConfigError('must be a finite positive number', { field: 'features.lengthscale', value: lengthscale });
      if (!Array.isArray(centres) || centres.length === 0) throw new ConfigError('must be a non-empty array of centres', { field: 'features.centres', value: centres });
      for (const centre of centres) {
        if (!Array.isArray(centre) || centre.length !== width || !centre.every(Number.isFinite)) throw new ConfigError(`each centre must be ${width} finite numbers (one per column)`, { field: 'features.centres', value: centre });
      }
      return 1 + centres.length;
    }
    default:
      throw new ConfigError('must be identity, columns, polynomial or rbf', { field: 'features.type', value: (transform as { type: unknown }).type });
  }
}
