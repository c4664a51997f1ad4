import type { Batch } from '../../src/core/batch.js';
import { vbLinearArdFamily, vbLinearFamily } from '../../src/models/vb-linear/family.js';
import type { VbLinearOptions } from '../../src/models/vb-linear/options.js';
import type { FitAdapter } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

function adapter(id: 'vb-linear' | 'vb-linear-ard', ard: boolean): FitAdapter {
  return {
    id,
    task: 'regression',
    optionKeys: ard ? ['prior', 'tol', 'maxIter', 'pruneThreshold'] : ['prior', 'tol', 'maxIter'],
    fit(data, options) {
      const family = ard ? vbLinearArdFamily : vbLinearFamily;
      // JSON has no Infinity: `"pruneThreshold": null` turns pruning off (the reference vb_linear_fit_ard).
      const model = family.create(data.d, (options.pruneThreshold === null ? { ...options, pruneThreshold: Infinity } : options) as VbLinearOptions);
      const batch: Batch = { x: data.x, y: data.y, n: data.n, d: data.d };
      model.update(batch);
      const p = model.posterior();
      const d = data.d;
      return {
        posterior: {
          family: id, version: model.snapshot().version, dim: d,
          mean: Array.from(p.w),
          cov: jsonMatrix(model.posteriorCovariance(), d),
          extras: {
            V: jsonMatrix(p.V, d), invV: jsonMatrix(p.invV, d), logdetV: p.logDetV, an: p.an, bn: p.bn,
            E_a: ard ? Array.from(p.E_a) : p.E_a[0], L: p.L, iterations: p.iterations, stopReason: p.stopReason,
          },
        },
        predictive: (x, offset) => model.predict(x, offset),
        predict(x, n) {
          const mean: number[] = [];
          const precision: number[] = [];
          const df: number[] = [];
          for (let r = 0; r < n; r++) {
            const t = model.predict(x, r * d);
            mean.push(t.location);
            precision.push(t.precision);
            df.push(t.df);
          }
          return { mean, precision, df };
        },
      };
    },
  };
}

/** `vbstream fit --model vb-linear`. */
export const vbLinearAdapter = adapter('vb-linear', false);
/** `vbstream fit --model vb-linear-ard`. */
export const vbLinearArdAdapter = adapter('vb-linear-ard', true);
