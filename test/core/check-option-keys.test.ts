import { describe, expect, it } from 'vitest';
import { checkOptionKeys } from '../../src/core/check-option-keys.js';
import { ConfigError } from '../../src/core/config-error.js';
import { getFamily } from '../../src/registry.js';

const docs = { prior: { a0: 'shape', b0: 'rate' }, tol: 'tolerance' };

describe('checkOptionKeys', () => {
  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'])('refuses "%s" as an option key, at the top and nested, as JSON.parse gives it', (key) => {
    for (const text of [`{"${key}": 1}`, `{"${key}": {"tol": 1}}`, `{"prior": {"${key}": 1}}`]) {
      const options = JSON.parse(text) as unknown;
      expect(() => checkOptionKeys('vb-linear', options, docs), text).toThrow(ConfigError);
      expect(() => getFamily('vb-linear').create(2, options as never), text).toThrow(ConfigError);
    }
  });

  it('names the reserved key and where it is', () => {
    expect(() => checkOptionKeys('vb-linear', JSON.parse('{"prior": {"__proto__": {"a0": 1}}}'), docs)).toThrow(/field prior\.__proto__/);
    expect(() => checkOptionKeys('vb-linear', JSON.parse('{"tol": 1, "constructor": 1}'), docs)).toThrow(/field constructor/);
  });

  it('still accepts the documented keys', () => {
    expect(() => checkOptionKeys('vb-linear', { prior: { a0: 1 }, tol: 1e-6 }, docs)).not.toThrow();
  });
});
