import type { Batch } from '../../src/core/batch.js';
import type { Predictive } from '../../src/core/predictive.js';
import { optionChecks } from '../../src/core/option-checks.js';
import type { GaussianPosterior } from '../../src/gaussian/gaussian-posterior.js';
import { vbLogitArdFamily, vbLogitFamily } from '../../src/models/vb-logit/family.js';
import type { VbLogitOptions } from '../../src/models/vb-logit/options.js';
import { vbLogitOnlineCodec } from '../../src/models/vb-logit/online-codec.js';
import { vbLogitOnlineFamily } from '../../src/models/vb-logit/online-family.js';
import type { VbLogitOnlineOptions } from '../../src/models/vb-logit/online-options.js';
import { predictVbLogitJoint } from '../../src/models/vb-logit/predict-joint.js';
import type { FitAdapter, FitOutcome, PosteriorJson } from '../fit-adapter.js';
import { jsonMatrix } from '../json-matrix.js';

function logisticOutcome(posteriorJson: PosteriorJson, posterior: GaussianPosterior, d: number, predictor: 'row' | 'joint',
  settings: { tol: number; maxIter: number }, predictRow: (x: Float64Array, offset: number) => Predictive): FitOutcome {
  return {
    posterior: posteriorJson,
    predict(x, n) {
      if (predictor === 'joint') return { prob: Array.from(predictVbLogitJoint(posterior, d, x, n, settings)) };
      return { prob: Array.from({ length: n }, (_, r) => predictRow(x, r * d).mean) };
    },
    predictive: predictRow,
  };
}

function gaussianExtras(posterior: GaussianPosterior, d: number): { V: number[][]; invV: number[][]; logdetV: number } {
  return { V: jsonMatrix(posterior.V, d), invV: jsonMatrix(posterior.invV, d), logdetV: posterior.logDetV };
}

function batchAdapter(id: 'vb-logit' | 'vb-logit-ard', ard: boolean): FitAdapter {
  return {
    id,
    task: 'classification',
    optionKeys: ard ? ['prior', 'tol', 'maxIter', 'predictor'] : ['prior', 'alpha', 'tol', 'maxIter', 'predictor'],
    fit(data, options) {
      const { predictor, ...modelOptions } = options;
      const chosen = optionChecks.oneOf('predictor', predictor, 'row', ['row', 'joint'] as const);
      const model = (ard ? vbLogitArdFamily : vbLogitFamily).create(data.d, modelOptions as VbLogitOptions);
      const batch: Batch = { x: data.x, y: data.y, n: data.n, d: data.d };
      model.update(batch);
      const p = model.posterior;
      const diag = model.diagnostics;
      const d = data.d;
      const json: PosteriorJson = {
        family: id, version: model.snapshot().version, dim: d, mean: Array.from(p.w), cov: jsonMatrix(p.V, d),
        extras: { ...gaussianExtras(p, d), E_a: ard ? Array.from(diag.expectedAlpha) : diag.expectedAlpha[0], L: diag.bound, iterations: diag.iterations, stopReason: diag.stopReason },
      };
      const settings = { tol: (modelOptions as VbLogitOptions).tol ?? 1e-5, maxIter: (modelOptions as VbLogitOptions).maxIter ?? 500 };
      return logisticOutcome(json, p, d, chosen, settings, (x, offset) => model.predict(x, offset));
    },
  };
}

/** `vbstream fit --model vb-logit`. */
export const vbLogitAdapter = batchAdapter('vb-logit', false);
/** `vbstream fit --model vb-logit-ard`. */
export const vbLogitArdAdapter = batchAdapter('vb-logit-ard', true);

/** `vbstream fit --model vb-logit-online`: rows in file order, one Sherman–Morrison update each. */
export const vbLogitOnlineAdapter: FitAdapter = {
  id: 'vb-logit-online',
  task: 'classification',
  optionKeys: ['priorPrecision', 'tol', 'maxIter', 'predictor'],
  fit(data, options) {
    const { predictor, ...modelOptions } = options;
    const chosen = optionChecks.oneOf('predictor', predictor, 'row', ['row', 'joint'] as const);
    const model = vbLogitOnlineFamily.create(data.d, modelOptions as VbLogitOnlineOptions);
    const d = data.d;
    const iterations: number[] = [];
    for (let r = 0; r < data.n; r++) {
      const stats = model.update({ x: data.x.subarray(r * d, r * d + d), y: data.y.subarray(r, r + 1), n: 1, d, firstRow: r + 1 });
      iterations.push(stats.iterations ?? 0);
    }
    const p = model.posterior;
    const json: PosteriorJson = {
      family: 'vb-logit-online', version: vbLogitOnlineCodec.version, dim: d, mean: Array.from(p.w), cov: jsonMatrix(p.V, d),
      extras: { ...gaussianExtras(p, d), iterations },
    };
    const settings = { tol: (modelOptions as VbLogitOnlineOptions).tol ?? 1e-5, maxIter: (modelOptions as VbLogitOnlineOptions).maxIter ?? 500 };
    return logisticOutcome(json, p, d, chosen, settings, (x, offset) => model.predict(x, offset));
  },
};
