import { describe, expect, it } from 'vitest';
import { jsonObjectFlag } from '../../cli/json-object-flag.js';
import { ConfigError } from '../../src/core/config-error.js';

describe('jsonObjectFlag', () => {
  it('refuses __proto__, constructor and prototype keys at any depth, naming the flag and the key path', () => {
    expect(() => jsonObjectFlag('--options', '{"alpha": {"__proto__": {"x": 1}}}')).toThrow(ConfigError);
    expect(() => jsonObjectFlag('--options', '{"alpha": {"__proto__": {"x": 1}}}')).toThrow(/--options alpha\.__proto__/);
    expect(() => jsonObjectFlag('--policy', '{"arms": [{"constructor": 1}]}')).toThrow(/--policy arms\.0\.constructor/);
    expect(jsonObjectFlag('--options', '{"alpha": 1}')).toEqual({ alpha: 1 });
  });
});
