import { ConfigError } from '../src/core/config-error.js';

/**
 * A numeric option of the command line: `fallback` when absent, else a number of at least `min`
 * (an integer when `integer`); anything else is a `ConfigError` naming the flag and its value.
 */
export function numberFlag(flag: string, text: string | undefined, fallback: number, { min = 0, integer = true }: { readonly min?: number; readonly integer?: boolean } = {}): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new ConfigError(`${flag} must be ${integer ? 'an integer' : 'a finite number'}${min === -Infinity ? '' : ` ≥ ${min}`}`, { field: flag, value: text });
  }
  return value;
}
