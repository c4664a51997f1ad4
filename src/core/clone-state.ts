import { isRestorable } from './restorable.js';

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A deep copy of a model state for the shell's atomic commit: typed arrays are copied, plain
 * objects and arrays recursed, {@link Restorable} objects cloned; any other object (a feature map,
 * a frozen grid) is immutable by contract and shared. Primitives are copied by value.
 */
export function cloneState<T>(state: T): T {
  if (typeof state !== 'object' || state === null) return state;
  if (ArrayBuffer.isView(state)) return (state as unknown as Float64Array).slice() as T;
  if (Array.isArray(state)) return state.map((item: unknown) => cloneState(item)) as T;
  if (isRestorable(state)) return state.clone() as T;
  if (!isPlain(state)) return state;
  const copy: { [key: string]: unknown } = {};
  for (const key of Object.keys(state)) copy[key] = cloneState((state as { [key: string]: unknown })[key]);
  return copy as T;
}
