/** Keys that name JavaScript object machinery rather than data: refused in options and configuration files. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The path (`prior.__proto__`, `grid.0.constructor`) of the first own key `__proto__`,
 * `constructor` or `prototype` in a parsed JSON value (objects and arrays at any depth), or
 * `undefined` when there is none. `JSON.parse` keeps such keys as own properties, which a later
 * copy or lookup may turn into a prototype change or a match on `Object.prototype`.
 */
export function findReservedKey(value: unknown, path = ''): string | undefined {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  for (const key of Object.keys(value)) {
    const at = `${path}${key}`;
    if (RESERVED.has(key)) return at;
    const inner = findReservedKey((value as { [key: string]: unknown })[key], `${at}.`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
