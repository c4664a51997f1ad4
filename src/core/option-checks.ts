import { ConfigError } from './config-error.js';

/**
 * Validators for model options: each returns the value when it is acceptable (or the default
 * when it is undefined) and otherwise throws {@link ConfigError} naming the option and value.
 */
export const optionChecks = {
  positive(field: string, value: unknown, fallback: number): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new ConfigError('must be a finite positive number', { field, value: v });
    return v;
  },
  nonNegative(field: string, value: unknown, fallback: number): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) throw new ConfigError('must be a finite non-negative number', { field, value: v });
    return v;
  },
  finite(field: string, value: unknown, fallback: number): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new ConfigError('must be a finite number', { field, value: v });
    return v;
  },
  positiveInteger(field: string, value: unknown, fallback: number): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ConfigError('must be a positive integer', { field, value: v });
    return v;
  },
  nonNegativeInteger(field: string, value: unknown, fallback: number): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ConfigError('must be a non-negative integer', { field, value: v });
    return v;
  },
  inRange(field: string, value: unknown, fallback: number, low: number, high: number, lowOpen = false): number {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'number' || !(lowOpen ? v > low : v >= low) || !(v <= high)) {
      throw new ConfigError(`must be a number in ${lowOpen ? '(' : '['}${low}, ${high}]`, { field, value: v });
    }
    return v;
  },
  boolean(field: string, value: unknown, fallback: boolean): boolean {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'boolean') throw new ConfigError('must be true or false', { field, value: v });
    return v;
  },
  oneOf<T extends string>(field: string, value: unknown, fallback: T, allowed: readonly T[]): T {
    const v = value === undefined ? fallback : value;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new ConfigError(`must be one of ${allowed.join(', ')}`, { field, value: v });
    return v as T;
  },
  dimension(value: unknown): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ConfigError('model dimension must be a positive integer', { field: 'dim', value });
    return value;
  },
};
