/**
 * A mutable object inside a model's state that the shell can copy for an atomic commit (an
 * optimiser, a generator): `clone()` makes an independent copy, `copyFrom(other)` overwrites this
 * one with another's values, allocating nothing. Objects in a state that are neither plain data nor
 * restorable are treated as immutable and shared.
 */
export interface Restorable<T> {
  clone(): T;
  copyFrom(other: T): void;
}

/** Whether a value implements {@link Restorable}. */
export function isRestorable(value: object): value is Restorable<object> {
  return typeof (value as Partial<Restorable<object>>).clone === 'function' && typeof (value as Partial<Restorable<object>>).copyFrom === 'function';
}
