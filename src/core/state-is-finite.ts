import { isRestorable } from './restorable.js';

/**
 * Whether every float array reachable in a model state (through plain objects and arrays) holds
 * only finite values, and no number field is ±Infinity: the shell's default test that a step left a
 * usable posterior. A NaN number field passes (families keep NaN markers such as "no objective
 * yet"); restorable and other class instances are skipped.
 */
export function stateIsFinite(state: unknown): boolean {
  if (typeof state === 'number') return state !== Infinity && state !== -Infinity;
  if (typeof state !== 'object' || state === null) return true;
  if (state instanceof Float64Array || state instanceof Float32Array) {
    for (let i = 0; i < state.length; i++) if (!Number.isFinite(state[i])) return false;
    return true;
  }
  if (ArrayBuffer.isView(state) || isRestorable(state)) return true;
  if (Array.isArray(state)) return state.every((item: unknown) => stateIsFinite(item));
  const prototype = Object.getPrototypeOf(state);
  if (prototype !== Object.prototype && prototype !== null) return true;
  for (const key of Object.keys(state)) if (!stateIsFinite((state as { [key: string]: unknown })[key])) return false;
  return true;
}
