import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/config-error.js';
import { RecordDecoder } from '../../../connectors/kafka/record-decoder.js';

const buf = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('RecordDecoder', () => {
  it('decodes {"x":[...],"y":...} into the buffer at the offset and returns the label', () => {
    const decoder = new RecordDecoder({ dim: 3, task: 'regression' });
    const x = new Float64Array(6).fill(-7);
    expect(decoder.decode(buf('{"x":[1,2.5,-3],"y":0.25}'), x, 3)).toBe(0.25);
    expect(Array.from(x)).toEqual([-7, -7, -7, 1, 2.5, -3]);
  });

  it('decodes named fields in schema order, with a custom label field', () => {
    const decoder = new RecordDecoder({ dim: 2, features: ['b', 'a'], label: 'clicked', task: 'classification' });
    const x = new Float64Array(2);
    expect(decoder.decode(buf('{"a":1,"b":2,"clicked":1,"extra":"ignored"}'), x, 0)).toBe(1);
    expect(Array.from(x)).toEqual([2, 1]);
  });

  it.each([
    ['empty', null, /no value/],
    ['oversize', `{"x":[1,2],"y":1,"pad":"${'a'.repeat(100)}"}`, /limit 64/],
    ['bad-json', '{"x":[1,2', /JSON/],
    ['bad-json', '\xff\xfe', /./],
    ['bad-shape', '[1,2,1]', /not a JSON object/],
    ['bad-shape', '{"x":"1,2","y":1}', /x is not an array/],
    ['wrong-width', '{"x":[1,2,3],"y":1}', /3 features, expected 2/],
    ['non-numeric', '{"x":[1,"2"],"y":1}', /x\[1\] is "2"/],
    ['non-numeric', '{"x":[1,null],"y":1}', /x\[1\] is null/],
    ['non-finite', '{"x":[-1e999,2],"y":1}', /x\[0\] is -Infinity/],
    ['out-of-range', '{"x":[1,1e200],"y":1}', /^x\[1\] is 1e\+200; feature is out of range: \|value\| > maxAbsInput \(1e\+12\)$/],
    ['out-of-range', '{"x":[-2e12,1],"y":1}', /^x\[0\] is -2000000000000; feature is out of range/],
    ['bad-label', '{"x":[1,2]}', /missing/],
    ['bad-label', '{"x":[1,2],"y":0.5}', /0\/1 or -1\/1/],
    ['bad-label', '{"x":[1,2],"y":"1"}', /not a finite number/],
  ])('refuses a record with reason %s and a detail', (reason, value, detail) => {
    const decoder = new RecordDecoder({ dim: 2, task: 'classification', maxBytes: 64 });
    const bytes = value === null ? null : value === '\xff\xfe' ? Buffer.from([0xff, 0xfe]) : buf(value);
    const x = new Float64Array(2).fill(9);
    expect(decoder.decode(bytes, x, 0)).toBeUndefined();
    expect(decoder.failure.reason).toBe(reason);
    expect(decoder.failure.detail).toMatch(detail);
  });

  it('refuses a missing named field, checks counts, and accepts a missing label when not required', () => {
    const named = new RecordDecoder({ dim: 2, features: ['a', 'b'], task: 'count' });
    const x = new Float64Array(2);
    expect(named.decode(buf('{"a":1,"y":2}'), x, 0)).toBeUndefined();
    expect(named.failure).toEqual({ reason: 'bad-shape', detail: 'feature field b is missing' });
    expect(named.decode(buf('{"a":1,"b":2,"y":-1}'), x, 0)).toBeUndefined();
    expect(named.failure.reason).toBe('bad-label');
    expect(named.decode(buf('{"a":1,"b":2,"y":3}'), x, 0)).toBe(3);
    const scoring = new RecordDecoder({ dim: 2, task: 'regression', requireLabel: false });
    expect(scoring.decode(buf('{"x":[1,2]}'), x, 0)).toBeNaN();
  });

  it('refuses a label or weight beyond maxAbsInput as out-of-range; the bound is the schema\'s (default 1e12)', () => {
    const x = new Float64Array(2);
    const regression = new RecordDecoder({ dim: 2, task: 'regression', weight: 'w' });
    expect(regression.decode(buf('{"x":[1,2],"y":1e12,"w":1e12}'), x, 0)).toBe(1e12);
    expect(regression.decode(buf('{"x":[1,2],"y":-1e13}'), x, 0)).toBeUndefined();
    expect(regression.failure).toEqual({ reason: 'out-of-range', detail: 'label y is -10000000000000; label is out of range: |value| > maxAbsInput (1e+12)' });
    expect(regression.decode(buf('{"x":[1,2],"y":1,"w":1e300}'), x, 0)).toBeUndefined();
    expect(regression.failure).toEqual({ reason: 'out-of-range', detail: 'weight w is 1e+300; weight is out of range: |value| > maxAbsInput (1e+12)' });
    const counts = new RecordDecoder({ dim: 2, features: ['a', 'b'], task: 'count', maxAbsInput: 1000 });
    expect(counts.decode(buf('{"a":1000,"b":-1000,"y":1000}'), x, 0)).toBe(1000);
    expect(counts.decode(buf('{"a":1,"b":1000.5,"y":3}'), x, 0)).toBeUndefined();
    expect(counts.failure).toEqual({ reason: 'out-of-range', detail: 'b is 1000.5; feature is out of range: |value| > maxAbsInput (1000)' });
    expect(counts.decode(buf('{"a":1,"b":2,"y":5000}'), x, 0)).toBeUndefined();
    expect(counts.failure.reason).toBe('out-of-range');
    expect(() => new RecordDecoder({ dim: 2, task: 'regression', maxAbsInput: 0.5 })).toThrow(/field maxAbsInput/);
  });

  it('rejects an inconsistent schema with a ConfigError', () => {
    expect(() => new RecordDecoder({ dim: 3, features: ['a'], task: 'regression' })).toThrow(ConfigError);
    expect(() => new RecordDecoder({ dim: 0, task: 'regression' })).toThrow(ConfigError);
    expect(() => new RecordDecoder({ dim: 2, task: 'regression', maxBytes: -1 })).toThrow(ConfigError);
  });
});
