import { optionChecks } from './option-checks.js';

/**
 * The default bound on |input|: beyond any practical raw value (counts, prices, byte sizes, epoch
 * seconds) yet far from where squares and sums of squares overflow (1e154), so no family meets an
 * infinity from the size of its data alone.
 */
const DEFAULT_MAX_ABS_INPUT = 1e12;

/** The checked `maxAbsInput` of {@link InputLimits} (the default 1e12 when undefined): a number in [1, Number.MAX_VALUE], else `ConfigError`. */
export function maxAbsInputOf(value: unknown): number {
  return optionChecks.inRange('maxAbsInput', value, DEFAULT_MAX_ABS_INPUT, 1, Number.MAX_VALUE);
}
