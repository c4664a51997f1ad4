import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoggedPrediction } from '../../serve/logged-prediction.js';
import { loggedPredictionJson } from '../../serve/logged-prediction-json.js';

const number = fc.oneof(fc.double(), fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Infinity, -Infinity, NaN));

describe('loggedPredictionJson', () => {
  it('writes what JSON.stringify writes of a logged prediction, for every number (non-finite ones as null) and every string', () => {
    const logged: fc.Arbitrary<LoggedPrediction> = fc.record({
      predictionId: fc.string({ unit: 'binary' }), x: fc.array(number, { maxLength: 12 }), version: fc.string(), mean: number, variance: number, interval: fc.tuple(number, number), level: number,
      predictedAt: fc.integer({ min: 0, max: 2 ** 45 }), instance: fc.string(), family: fc.string(), dim: fc.nat(),
    });
    fc.assert(fc.property(logged, (p) => {
      expect(loggedPredictionJson(p)).toBe(JSON.stringify(p));
    }), { numRuns: 2000 });
  });
});
