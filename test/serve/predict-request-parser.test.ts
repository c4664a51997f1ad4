import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PredictRequestParser } from '../../serve/predict-request-parser.js';

describe('PredictRequestParser', () => {
  it('gives every request rows of its own: later requests, single or batches, never change an earlier one\'s', () => {
    const dim = 3;
    const parser = new PredictRequestParser({ dim, maxAbsInput: 1e6, maxRows: 50, level: 0.9 });
    const row = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: dim, maxLength: dim });
    const body = fc.oneof(row.map((x) => ({ x })), fc.array(row, { minLength: 1, maxLength: 50 }).map((rows) => ({ rows })));
    fc.assert(fc.property(fc.array(body, { minLength: 1, maxLength: 3_000 }), (bodies) => {
      const parsed = bodies.map((b) => parser.parse(b));
      bodies.forEach((b, i) => {
        const expected = 'x' in b ? b.x : b.rows.flat();
        expect(Array.from(parsed[i].rows)).toEqual(expected);
        expect([parsed[i].count, parsed[i].batch]).toEqual('x' in b ? [1, false] : [b.rows.length, true]);
      });
    }), { numRuns: 20 });
  });
});
