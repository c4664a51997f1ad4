import { describe, expect, it } from 'vitest';
import { BucketCounts } from '../../monitoring/bucket-counts.js';
import { SlidingMean } from '../../monitoring/sliding-mean.js';

describe('BucketCounts', () => {
  it('puts a value on a bound into that bound\'s bucket (le is inclusive) and larger values in the overflow bucket', () => {
    const counts = new BucketCounts([1, 2, 5]);
    for (const v of [0.5, 1, 1.5, 2, 5, 7, Number.NaN]) counts.observe(v);
    expect(Array.from(counts.counts)).toEqual([2, 2, 1, 1]);
    expect(counts.count).toBe(6);
    expect(counts.sum).toBe(17);
  });

  it('adds deltas of the same shape and refuses others', () => {
    const counts = new BucketCounts([1, 2]);
    counts.add([1, 0, 2], 10, 3);
    counts.add(Float64Array.of(0, 4, 0), 6, 4);
    expect(Array.from(counts.counts)).toEqual([1, 4, 2]);
    expect([counts.sum, counts.count]).toEqual([16, 7]);
    expect(() => counts.add([1, 2], 0, 3)).toThrow(/expected 3 bucket counts/);
    expect(() => new BucketCounts([1, 1])).toThrow(/increase strictly/);
  });
});

describe('SlidingMean', () => {
  it('averages only the last `size` values', () => {
    const mean = new SlidingMean(3);
    expect(mean.mean).toBeNaN();
    mean.push(1);
    mean.push(2);
    expect(mean.mean).toBe(1.5);
    mean.push(3);
    mean.push(10);
    expect(mean.count).toBe(3);
    expect(mean.mean).toBe(5);
  });

  it('does not drift over many values of very different sizes', () => {
    const mean = new SlidingMean(4);
    for (let i = 0; i < 10_001; i++) mean.push(i % 7 === 0 ? 1e12 : 1e-3);
    mean.push(1);
    mean.push(1);
    mean.push(1);
    mean.push(1);
    expect(mean.mean).toBe(1);
  });
});
