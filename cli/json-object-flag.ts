import { ConfigError } from '../src/core/config-error.js';

/** A JSON option value of the command line, as an object (`{}` when the flag is absent); anything else is a `ConfigError` naming the flag. */
export function jsonObjectFlag(flag: string, text: string | undefined): { [key: string]: unknown } {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${flag} is not valid JSON: ${(cause as Error).message}`, { field: flag }, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${flag} must be a JSON object`, { field: flag });
  return value as { [key: string]: unknown };
}
