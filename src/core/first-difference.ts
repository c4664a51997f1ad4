/**
 * The path of the first place where two values differ (`''` for the values themselves), or
 * undefined when they are equal: numbers and typed-array entries bit for bit (so NaN equals NaN and
 * 0 differs from −0), plain objects and arrays key by key. Used to say why two models cannot merge.
 */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) ? undefined : path;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b ? undefined : path;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) return path;
    const x = a as unknown as ArrayLike<number>;
    const y = b as unknown as ArrayLike<number>;
    if (x.length !== y.length) return path;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return `${path}[${i}]`;
    return undefined;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const at = Array.isArray(a) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    const difference = firstDifference((a as { [key: string]: unknown })[key], (b as { [key: string]: unknown })[key], at);
    if (difference !== undefined) return difference;
  }
  return undefined;
}
