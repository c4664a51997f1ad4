import { describe, expect, it } from 'vitest';
import { vbLinearArdFamily, vbLinearFamily } from '../../src/models/vb-linear/family.js';
import { vbLogitArdFamily, vbLogitFamily } from '../../src/models/vb-logit/family.js';
import { vbLogitOnlineFamily } from '../../src/models/vb-logit/online-family.js';
import { predictVbLogitJoint } from '../../src/models/vb-logit/predict-joint.js';
import { JaakkolaJordanRow } from '../../src/likelihoods/jaakkola-jordan-row.js';
import { jaakkolaJordanRowFit } from '../../src/likelihoods/jaakkola-jordan-row-fit.js';
import { dot } from '../../src/linalg/dot.js';
import { gemv } from '../../src/linalg/gemv.js';
import { expectClose } from '../helpers/close.js';
import { readReferenceCsv, readReferenceJson } from '../helpers/reference.js';
import { readFileSync } from 'node:fs';
import { referencePath } from '../helpers/reference.js';

// Tolerances from ../shared/reference/vblinlogit/README.md ("How to compare").
const MATRIX = { rel: 1e-6, absOfMax: 1e-9 };
const SCALAR = { rel: 1e-8 };
const PROB = { abs: 1e-8 };

const datasets = readFileSync(referencePath('vblinlogit', 'datasets.txt'), 'utf8').trim().split('\n').map((line) => line.trim().split(/\s+/) as [string, string]);

function load(name: string) {
  const ref = readReferenceJson('vblinlogit', `${name}.json`);
  const train = readReferenceCsv('vblinlogit', ref.meta.train_file);
  const test = readReferenceCsv('vblinlogit', ref.meta.test_file);
  return { ref, train, test };
}

const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);

describe.each(datasets.filter(([, kind]) => kind === 'linear').map(([name]) => name))('VBLinLogit linear fixture %s', (name) => {
  const { ref, train, test } = load(name);

  it('parses the CSVs to the stored checksums', () => {
    expect(sum(train.x)).toBeCloseTo(ref.meta.checksums.sum_X, 9);
    expect(sum(train.y)).toBeCloseTo(ref.meta.checksums.sum_y, 9);
    expect(sum(test.x)).toBeCloseTo(ref.meta.checksums.sum_X_test, 9);
  });

  for (const [block, ard] of [['vb_linear_fit', false], ['vb_linear_fit_ard', true]] as const) {
    it(`${block}: every output, the iteration count and vb_linear_pred`, () => {
      const expected = ref[block];
      // The reference vb_linear_fit_ard does not prune: pruning off, as `pruneThreshold: Infinity`.
      const model = ard ? vbLinearArdFamily.create(train.d, { pruneThreshold: Infinity }) : vbLinearFamily.create(train.d);
      model.update({ x: train.x, y: train.y, n: train.n, d: train.d });
      const p = model.posterior();
      const o = expected.outputs;
      expect(p.iterations).toBe(expected.diagnostics.iterations);
      expect(p.stopReason).toBe(expected.diagnostics.stop_reason);
      expectClose(p.w, o.w, MATRIX, 'w');
      expectClose(p.V, o.V, MATRIX, 'V');
      expectClose(p.invV, o.invV, MATRIX, 'invV');
      expectClose(p.E_a, o.E_a, MATRIX, 'E_a');
      expectClose(p.logDetV, o.logdetV, SCALAR, 'logdetV');
      expectClose(p.an, o.an, SCALAR, 'an');
      expectClose(p.bn, o.bn, SCALAR, 'bn');
      expectClose(p.L, o.L, SCALAR, 'L');
      const pred = expected.predictions.vb_linear_pred;
      const mu: number[] = [];
      const lambda: number[] = [];
      for (let r = 0; r < test.n; r++) {
        const t = model.predict(test.x, r * test.d);
        mu.push(t.location);
        lambda.push(t.precision);
        expect(t.df).toBeCloseTo(pred.nu, 10);
      }
      expectClose(mu, pred.mu, MATRIX, 'mu');
      expectClose(lambda, pred.lambda, MATRIX, 'lambda');
    });
  }
});

describe.each(datasets.filter(([, kind]) => kind === 'logistic').map(([name]) => name))('VBLinLogit logistic fixture %s', (name) => {
  const { ref, train, test } = load(name);
  const labels01 = train.y.map((v) => (v + 1) / 2);

  function checkPredictions(expected: any, posterior: { w: Float64Array; V: Float64Array; invV: Float64Array; logDetV: number; q: number }, predictRow: (r: number) => number) {
    const incr = expected.predictions.vb_logit_pred_incr;
    const perRow = Array.from({ length: test.n }, (_, r) => predictRow(r));
    expectClose(perRow, incr.p, PROB, 'vb_logit_pred_incr p');
    const row = new JaakkolaJordanRow();
    const vx = new Float64Array(test.d);
    const counts = Array.from({ length: test.n }, (_, r) => {
      gemv(posterior.V, test.d, test.d, test.x, vx, 1, 0, r * test.d);
      return jaakkolaJordanRowFit(row, dot(vx, test.x, test.d, 0, r * test.d), dot(posterior.w, test.x, test.d, 0, r * test.d), 1, posterior.q, 0, 1e-5, 500);
    });
    expect(counts).toEqual(incr.iterations_per_row);
    const joint = predictVbLogitJoint(posterior, test.d, test.x, test.n, { tol: 1e-5, maxIter: 500 });
    expectClose(joint, expected.predictions.vb_logit_pred.p, PROB, 'vb_logit_pred p');
  }

  for (const [block, ard] of [['vb_logit_fit', false], ['vb_logit_fit_ard', true]] as const) {
    for (const coding of ['{-1,1}', '{0,1}'] as const) {
      it(`${block} with ${coding} labels: outputs, iteration count, both predictors`, () => {
        const expected = ref[block];
        const model = (ard ? vbLogitArdFamily : vbLogitFamily).create(train.d);
        model.update({ x: train.x, y: coding === '{0,1}' ? labels01 : train.y, n: train.n, d: train.d });
        const p = model.posterior;
        const diag = model.diagnostics;
        const o = expected.outputs;
        expect(diag.iterations).toBe(expected.diagnostics.iterations);
        expect(diag.stopReason).toBe(expected.diagnostics.stop_reason.replace('_', '-'));
        expectClose(p.w, o.w, MATRIX, 'w');
        expectClose(p.V, o.V, MATRIX, 'V');
        expectClose(p.invV, o.invV, MATRIX, 'invV');
        expectClose(diag.expectedAlpha, o.E_a, MATRIX, 'E_a');
        expectClose(p.logDetV, o.logdetV, SCALAR, 'logdetV');
        expectClose(diag.bound, o.L, SCALAR, 'L');
        checkPredictions(expected, p, (r) => model.predict(test.x, r * test.d).prob);
      });
    }
  }

  it('vb_logit_fit_iter: per-record Sherman–Morrison updates, per-record iteration counts, predictors', () => {
    const expected = ref.vb_logit_fit_iter;
    const model = vbLogitOnlineFamily.create(train.d);
    const counts: number[] = [];
    for (let r = 0; r < train.n; r++) {
      counts.push(model.update({ x: train.x.subarray(r * train.d, (r + 1) * train.d), y: labels01.subarray(r, r + 1), n: 1, d: train.d }).iterations ?? -1);
    }
    expect(counts).toEqual(expected.diagnostics.iterations_per_observation);
    const p = model.posterior;
    const o = expected.outputs;
    expectClose(p.w, o.w, MATRIX, 'w');
    expectClose(p.V, o.V, MATRIX, 'V');
    expectClose(p.invV, o.invV, MATRIX, 'invV');
    expectClose(p.logDetV, o.logdetV, SCALAR, 'logdetV');
    checkPredictions(expected, p, (r) => model.predict(test.x, r * test.d).prob);
  });

  it('vb_logit_fit_iter fed as one batch equals record-by-record updates exactly', () => {
    const one = vbLogitOnlineFamily.create(train.d);
    one.update({ x: train.x, y: train.y, n: train.n, d: train.d });
    const each = vbLogitOnlineFamily.create(train.d);
    for (let r = 0; r < train.n; r++) each.update({ x: train.x.subarray(r * train.d, (r + 1) * train.d), y: train.y.subarray(r, r + 1), n: 1, d: train.d });
    expect(Array.from(one.posterior.w)).toEqual(Array.from(each.posterior.w));
    expect(Array.from(one.posterior.V)).toEqual(Array.from(each.posterior.V));
  });
});
