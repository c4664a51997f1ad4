import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/core/closest-name.js';

describe('closestName', () => {
  it('finds a swapped, dropped, added or changed letter, and case differences', () => {
    expect(closestName('fti', ['run', 'fit', 'select'])).toBe('fit');
    expect(closestName('--modle', ['--model', '--input'])).toBe('--model');
    expect(closestName('--resum', ['--resume', '--config'])).toBe('--resume');
    expect(closestName('adf-logt', ['adf-logit', 'adf-probit'])).toBe('adf-logit');
    expect(closestName('VB-LINEAR', ['vb-linear'])).toBe('vb-linear');
  });

  it('suggests nothing for a name far from every known one', () => {
    expect(closestName('xyz', ['run', 'fit'])).toBeUndefined();
    expect(closestName('kafka', ['models'])).toBeUndefined();
  });
});
