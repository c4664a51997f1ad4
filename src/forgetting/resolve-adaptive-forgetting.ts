import { ConfigError } from '../core/config-error.js';
import { optionChecks } from '../core/option-checks.js';
import type { AdaptiveForgettingOptions } from './adaptive-forgetting-options.js';

/** The default candidates: no forgetting, then effective memories of about 10,000, 2,000 and 500 records at `forgetEvery` 100. */
const DEFAULT_FACTORS = [1, 0.99, 0.95, 0.8];

/** The checked candidate factors and period of adaptive forgetting, or undefined when it is off (`forgetting` 'none', given or the family's `fallback`, or a single factor of 1). */
export function resolveAdaptiveForgetting(options: AdaptiveForgettingOptions, fallback: 'adaptive' | 'none'): { readonly factors: Float64Array; readonly every: number } | undefined {
  const mode = optionChecks.oneOf('forgetting', options.forgetting, fallback, ['adaptive', 'none']);
  const every = optionChecks.positiveInteger('forgetEvery', options.forgetEvery, 100);
  const list = options.forgetFactors ?? DEFAULT_FACTORS;
  if (!Array.isArray(list) || list.length === 0) throw new ConfigError('must be a non-empty list of factors in (0, 1]', { field: 'forgetFactors', value: list as never });
  const factors = Float64Array.from(list, (factor: unknown, k) => optionChecks.inRange(`forgetFactors[${k}]`, factor, 1, 0, 1, true));
  if (mode === 'none' || (factors.length === 1 && factors[0] === 1)) return undefined;
  return { factors, every };
}
