import { closestName } from './closest-name.js';
import { ConfigError } from './config-error.js';
import { findReservedKey } from './find-reserved-key.js';
import type { OptionDocs } from './option-docs.js';

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Refuses option keys a family does not know, at any depth described by `docs`, with a
 * {@link ConfigError} naming the path (`prior.a00`), the known keys and, for a near miss, the key
 * meant ("did you mean prior.a0?"). `options` must be undefined or a plain object; a key
 * `__proto__`, `constructor` or `prototype` anywhere in it is refused (see {@link findReservedKey}).
 */
export function checkOptionKeys(family: string, options: unknown, docs: OptionDocs, path = ''): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) throw new ConfigError(`${family} options must be an object`, { field: path === '' ? 'options' : path, value: options });
  const reserved = findReservedKey(options, path);
  if (reserved !== undefined) throw new ConfigError(`${family} options may not use the key "${reserved.slice(reserved.lastIndexOf('.') + 1)}"`, { field: reserved });
  const known = Object.keys(docs);
  for (const [key, value] of Object.entries(options)) {
    const field = `${path}${key}`;
    const doc = Object.hasOwn(docs, key) ? docs[key] : undefined;
    if (doc === undefined) {
      const near = closestName(key, known);
      const hint = near === undefined ? '' : `did you mean "${path}${near}"? `;
      throw new ConfigError(`unknown ${family} option; ${hint}known${path === '' ? '' : ` under ${path.slice(0, -1)}`}: ${known.join(', ') || '(none)'}`, { field, value });
    }
    if (typeof doc === 'object' && isPlainObject(value)) checkOptionKeys(family, value, doc, `${field}.`);
  }
}
