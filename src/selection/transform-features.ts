import type { Batch } from '../core/batch.js';
import type { FeatureTransform } from './feature-transform.js';
import { featureTransformWidth } from './feature-transform-width.js';
import { transformColumns } from './transform-columns.js';

/** The batch with its features mapped by `transform` (checked; see {@link FeatureTransform}); labels and weights are shared, not copied. */
export function transformFeatures(transform: FeatureTransform, batch: Batch): Batch {
  const { x, n, d } = batch;
  const width = featureTransformWidth(transform, d);
  if (transform.type === 'identity') return batch;
  const columns = transformColumns(transform, d);
  const out = new Float64Array(n * width);
  for (let r = 0; r < n; r++) {
    const row = r * d;
    const base = r * width;
    switch (transform.type) {
      case 'columns':
        for (let k = 0; k < columns.length; k++) out[base + k] = x[row + columns[k]];
        break;
      case 'polynomial': {
        out[base] = 1;
        for (let k = 0; k < columns.length; k++) {
          const v = x[row + columns[k]];
          let power = 1;
          for (let p = 1; p <= transform.degree; p++) {
            power *= v;
            out[base + 1 + k * transform.degree + p - 1] = power;
          }
        }
        break;
      }
      case 'rbf': {
        out[base] = 1;
        const scale = -0.5 / (transform.lengthscale * transform.lengthscale);
        transform.centres.forEach((centre, c) => {
          let distance = 0;
          for (let k = 0; k < columns.length; k++) {
            const delta = x[row + columns[k]] - centre[k];
            distance += delta * delta;
          }
          out[base + 1 + c] = Math.exp(scale * distance);
        });
        break;
      }
    }
  }
  return { ...batch, x: out, d: width };
}
