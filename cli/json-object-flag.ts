import { ConfigError } from '../src/core/config-error.js';
import { findReservedKey } from '../src/core/find-reserved-key.js';

/** A JSON option value of the command line, as an object (`{}` when the flag is absent); anything else, or a key `__proto__`, `constructor` or `prototype` in it, is a `ConfigError` naming the flag. */
export function jsonObjectFlag(flag: string, text: string | undefined): { [key: string]: unknown } {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${flag} is not valid JSON: ${(cause as Error).message}`, { field: flag }, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${flag} must be a JSON object`, { field: flag });
  const reserved = findReservedKey(value);
  if (reserved !== undefined) throw new ConfigError(`${flag} may not use the key "${reserved.slice(reserved.lastIndexOf('.') + 1)}"`, { field: `${flag} ${reserved}` });
  return value as { [key: string]: unknown };
}
