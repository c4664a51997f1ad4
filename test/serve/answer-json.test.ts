import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerJson } from '../../serve/answer-json.js';
import type { Prediction } from '../../serve/prediction.js';

const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Infinity, -Infinity, NaN));
const prediction: fc.Arbitrary<Prediction> = fc.record({
  mean: number, variance: number, interval: fc.tuple(number, number), level: number, version: fc.string(), predictionId: fc.string({ unit: 'binary' }),
});

describe('answerJson', () => {
  it('writes what JSON.stringify writes, for every number (non-finite ones as null) and every string (quotes, controls, lone surrogates)', () => {
    fc.assert(fc.property(prediction, (p) => {
      expect(answerJson(p)).toBe(JSON.stringify(p));
    }), { numRuns: 2000 });
  });

  it('writes a batch as {"predictions": [...]} the same way', () => {
    fc.assert(fc.property(fc.array(prediction, { maxLength: 5 }), (predictions) => {
      expect(answerJson({ predictions })).toBe(JSON.stringify({ predictions }));
    }), { numRuns: 500 });
  });
});
