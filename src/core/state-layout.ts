import { cloneState } from './clone-state.js';
import { copyState } from './copy-state.js';
import { isRestorable, type Restorable } from './restorable.js';
import { stateIsFinite } from './state-is-finite.js';

type Fields = { [key: string]: unknown };

/** Whether every entry is finite: x·0 is 0 for finite x and NaN for ±Infinity or NaN, so one branch-free pass decides. */
function allFinite(array: Float64Array): boolean {
  let zero = 0;
  for (let i = 0; i < array.length; i++) zero += array[i] * 0;
  return zero === 0;
}

/** How one field of a state is copied and checked. */
type Field =
  | { readonly key: string; readonly kind: 'value' }
  | { readonly key: string; readonly kind: 'floats' }
  | { readonly key: string; readonly kind: 'restorable' }
  | { readonly key: string; readonly kind: 'object'; readonly layout: StateLayout }
  | { readonly key: string; readonly kind: 'other' };

/**
 * The fields of a model state read once, so that the shell's backup before every step and its
 * finiteness check after it walk a fixed list instead of rediscovering the object each time (the
 * same result as `copyState` and `stateIsFinite`, without their per-call key lists). Fields whose
 * shape may change (plain arrays, arrays that grow) go through those generic functions.
 */
export class StateLayout {
  private constructor(private readonly fields: readonly Field[]) {}

  /** The layout of `state` (a plain object). */
  static of(state: object): StateLayout {
    const fields: Field[] = [];
    for (const [key, value] of Object.entries(state)) {
      if (typeof value !== 'object' || value === null) fields.push({ key, kind: 'value' });
      else if (value instanceof Float64Array || value instanceof Float32Array) fields.push({ key, kind: 'floats' });
      else if (isRestorable(value)) fields.push({ key, kind: 'restorable' });
      else if (!Array.isArray(value) && !ArrayBuffer.isView(value) && Object.getPrototypeOf(value) === Object.prototype) fields.push({ key, kind: 'object', layout: StateLayout.of(value) });
      else fields.push({ key, kind: 'other' });
    }
    return new StateLayout(fields);
  }

  /** Overwrites `target` with `source` (same family, same layout), allocating only where an array changed length. */
  copy(target: object, source: object): void {
    const into = target as Fields;
    const from = source as Fields;
    for (const field of this.fields) {
      const key = field.key;
      const value = from[key];
      const current = into[key];
      if (field.kind === 'value' || current === value || typeof value !== 'object' || value === null || typeof current !== 'object' || current === null) into[key] = value;
      else if (field.kind === 'floats') {
        const array = value as Float64Array;
        if ((current as Float64Array).length === array.length) (current as Float64Array).set(array);
        else into[key] = cloneState(array);
      } else if (field.kind === 'restorable') (current as Restorable<object>).copyFrom(value);
      else if (field.kind === 'object') field.layout.copy(current, value);
      else {
        const wrapper: Fields = { [key]: current };
        copyState(wrapper, { [key]: value });
        into[key] = wrapper[key];
      }
    }
  }

  /** Whether every float in the state is finite and no number is ±Infinity (as `stateIsFinite`). */
  isFinite(state: object): boolean {
    const fields = state as Fields;
    for (const field of this.fields) {
      const value = fields[field.key];
      if (field.kind === 'floats') {
        if (!allFinite(value as Float64Array)) return false;
      } else if (field.kind === 'value') {
        if (value === Infinity || value === -Infinity) return false;
      } else if (field.kind === 'object') {
        if (typeof value === 'object' && value !== null ? !field.layout.isFinite(value) : !stateIsFinite(value)) return false;
      } else if (field.kind === 'other' && !stateIsFinite(value)) return false;
    }
    return true;
  }
}
