import { cloneState } from './clone-state.js';
import { isRestorable } from './restorable.js';

/**
 * Overwrites `target` with `source` in place, where `target` was made by `cloneState(source)` or a
 * copy of it: typed arrays of the same length are `set`, plain objects recursed, {@link Restorable}
 * objects `copyFrom`-ed, and every other field (numbers, strings, immutable objects, and arrays or
 * typed arrays whose length changed: a fresh clone) is re-assigned. Allocates nothing when the shapes match, so a
 * model can keep one backup and refresh it before every update.
 */
export function copyState<T extends object>(target: T, source: T): void {
  const into = target as { [key: string]: unknown };
  const from = source as { [key: string]: unknown };
  for (const key of Object.keys(from)) {
    const value = from[key];
    const current = into[key];
    if (typeof value !== 'object' || value === null || current === value) {
      into[key] = value;
    } else if (ArrayBuffer.isView(value)) {
      const array = value as unknown as Float64Array;
      if (ArrayBuffer.isView(current) && (current as unknown as Float64Array).length === array.length && current.constructor === array.constructor) (current as unknown as Float64Array).set(array);
      else into[key] = cloneState(array);
    } else if (isRestorable(value)) {
      if (typeof current === 'object' && current !== null && current.constructor === value.constructor) (current as typeof value).copyFrom(value);
      else into[key] = cloneState(value);
    } else if (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) {
      if (typeof current === 'object' && current !== null && Array.isArray(current) === Array.isArray(value) && (!Array.isArray(value) || (current as unknown[]).length === value.length)) {
        copyState(current, value);
      } else {
        into[key] = cloneState(value);
      }
    } else {
      into[key] = value;
    }
  }
  for (const key of Object.keys(into)) if (!(key in from)) delete into[key];
}
