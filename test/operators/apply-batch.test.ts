import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { applyBatch } from '../../operators/apply-batch.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import type { ModelShell } from '../../src/core/model-shell.js';
import { getFamily } from '../../src/registry.js';

const D = 3;
/** A record's features and label, and what (if anything) spoils it. */
const recordArbitrary = fc.record({
  x: fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: D, maxLength: D }),
  y: fc.constantFrom(0, 1),
  spoil: fc.constantFrom('none', 'none', 'none', 'nan', 'label', 'huge'),
});

function batchOf(records: readonly { x: number[]; y: number; spoil: string }[]): { x: Float64Array; y: Float64Array; n: number; d: number; firstRow: number } {
  const x = new Float64Array(records.length * D);
  const y = new Float64Array(records.length);
  records.forEach((record, i) => {
    x.set(record.x, i * D);
    y[i] = record.spoil === 'label' ? 2 : record.y;
    if (record.spoil === 'nan') x[i * D + 1] = Number.NaN;
    if (record.spoil === 'huge') x[i * D] = 1e200;
  });
  return { x, y, n: records.length, d: D, firstRow: 1 };
}

/** The model's snapshot with every array as its bytes (so that equal means bit for bit, NaNs and signed zeros included). */
function bits(model: OnlineModel): unknown {
  const { header, arrays } = model.snapshot();
  return { header, arrays: Object.entries(arrays).map(([name, array]) => [name, Array.from(new Uint8Array(array.buffer, array.byteOffset, array.byteLength))]) };
}

describe('applyBatch', () => {
  it('runs no validation pass of its own on a clean batch (the update checks it; before, `validate` ran here and again in the update)', () => {
    const model = getFamily('adf-logit').create(D);
    const validate = vi.spyOn(model, 'validate');
    const outcome = applyBatch(model, batchOf([{ x: [1, 0.5, -1], y: 1, spoil: 'none' }, { x: [1, -2, 0.25], y: 0, spoil: 'none' }]), Float64Array.of(7, 8), true);
    expect(outcome.rejected).toEqual([]);
    expect(outcome.stats.records).toBe(2);
    expect(validate).not.toHaveBeenCalled();
  });

  it('hands an empty batch to no update', () => {
    const model = getFamily('adf-logit').create(D);
    const update = vi.spyOn(model, 'update');
    const outcome = applyBatch(model, batchOf([]), new Float64Array(0), true);
    expect(update).not.toHaveBeenCalled();
    expect(outcome.stats).toEqual({ records: 0 });
    expect(outcome.rejected).toEqual([]);
  });

  for (const family of ['adf-logit', 'vb-logit-online']) {
    it(`${family}: ends as the model fed only the good records, refuses each bad one at its row, and scores every good one against the model before the batch (fast-check)`, () => {
      fc.assert(fc.property(fc.array(recordArbitrary, { minLength: 1, maxLength: 12 }), (records) => {
        const model = getFamily(family).create(D) as ModelShell;
        const expected = model.clone();
        const before = model.clone();
        const batch = batchOf(records);
        const rows = Float64Array.from(records, (_, i) => 100 + i);
        const good = records.flatMap((record, i) => (record.spoil === 'none' ? [i] : []));
        const outcome = applyBatch(model, batch, rows, true);
        expect(outcome.rejected.map(({ index, error }) => [index, error.kind, error.location.row])).toEqual(records.flatMap((record, i) => (record.spoil === 'none' ? [] : [[i, 'input', 100 + i]])));
        if (good.length > 0) expected.update(batchOf(good.map((i) => records[i])));
        expect(bits(model)).toEqual(bits(expected));
        expect(outcome.stats.records).toBe(good.length);
        for (let i = 0; i < records.length; i++) {
          if (records[i].spoil !== 'none') {
            expect([outcome.scores!.mean[i], outcome.scores!.variance[i], outcome.scores!.logLoss[i]]).toEqual([Number.NaN, Number.NaN, Number.NaN]);
            continue;
          }
          const predictive = before.predict(batch.x, i * D);
          expect([outcome.scores!.mean[i], outcome.scores!.variance[i], outcome.scores!.logLoss[i]]).toEqual([predictive.mean, predictive.variance, -predictive.logProb(batch.y[i])]);
        }
      }), { numRuns: 60 });
    });
  }
});
