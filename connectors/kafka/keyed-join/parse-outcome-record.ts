import { InputError } from '../../../src/core/input-error.js';
import type { JoinVocabulary } from './join-vocabulary.js';

/**
 * An outcomes-topic value: `{<id>, <value>}` from the application, or the learner's own expiry
 * marker `{<id>, expired: true[, <value>]}` written when a logged record's window closes (with the
 * default value when expired records are learned, without one when they are dropped).
 */
export interface OutcomeRecord {
  readonly id: string;
  readonly value: number | undefined;
  readonly expired: boolean;
}

/**
 * An outcomes-topic value (parsed JSON) as an {@link OutcomeRecord}, its fields named by the
 * vocabulary; a value of `true`/`false` reads as 1/0. Anything else throws an `InputError` naming
 * the field at fault (the value field for a bad value).
 */
export function parseOutcomeRecord(body: unknown, vocabulary: JoinVocabulary): OutcomeRecord {
  const { outcome, idField, valueField } = vocabulary;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InputError(`a ${outcome} must be a JSON object {"${idField}": "...", "${valueField}": number}`, { field: 'body' });
  const r = body as { readonly [key: string]: unknown };
  const id = r[idField];
  if (typeof id !== 'string' || id === '') throw new InputError(`${idField} must be a non-empty string`, { field: idField, value: id });
  const expired = r.expired === true;
  const raw = r[valueField];
  const value = raw === true ? 1 : raw === false ? 0 : raw;
  if (expired && value === undefined) return { id, value: undefined, expired };
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new InputError(`${valueField} must be a finite number (or true/false)`, { field: valueField, value: raw });
  return { id, value, expired };
}
