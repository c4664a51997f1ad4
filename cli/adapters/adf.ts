import { adfLogitFamily, adfPoissonFamily, adfProbitFamily } from '../../src/models/adf/family.js';
import type { AdfOptions } from '../../src/models/adf/options.js';
import type { AdfLink } from '../../src/models/adf/state.js';
import type { FitAdapter, PosteriorJson } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

const FAMILIES = { logit: adfLogitFamily, probit: adfProbitFamily, poisson: adfPoissonFamily } as const;

function adfAdapter(link: AdfLink): FitAdapter {
  const id = `adf-${link}`;
  const family = FAMILIES[link];
  return {
    id,
    task: link === 'poisson' ? 'count' : 'classification',
    optionKeys: ['prior', 'quadratureNodes', 'window', 'revisits'],
    fit(data, options) {
      const model = family.create(data.d, options as AdfOptions);
      model.update({ x: data.x, y: data.y, n: data.n, d: data.d });
      const p = model.posterior;
      const d = data.d;
      const json: PosteriorJson = {
        family: id, version: model.snapshot().version, dim: d, mean: Array.from(p.w), cov: jsonMatrix(p.V, d),
        extras: { logdetV: p.logDetV },
      };
      return {
        posterior: json,
        predictive: (x, offset) => model.predict(x, offset),
        predict(x, n): { [key: string]: number[] } {
          const predictions = Array.from({ length: n }, (_, r) => model.predict(x, r * d));
          return link === 'poisson'
            ? { mean: predictions.map((q) => q.mean), variance: predictions.map((q) => q.variance) }
            : { prob: predictions.map((q) => q.mean) };
        },
      };
    },
  };
}

/** `vbstream fit --model adf-logit`: rows in file order, one moment-matching update each. */
export const adfLogitAdapter = adfAdapter('logit');
/** `vbstream fit --model adf-probit`: rows in file order, one closed-form moment-matching update each. */
export const adfProbitAdapter = adfAdapter('probit');
/** `vbstream fit --model adf-poisson`: counts in file order, one moment-matching update each. */
export const adfPoissonAdapter = adfAdapter('poisson');
