/**
 * `fields` copied field by field, in order, into a new plain object (as `cloneState` copies one, so a
 * copy of the result shares its hidden class), with the fields named in `doubles` holding doubles
 * from their first store: the shape of an object a model makes once and hot code then reads (its
 * state, workspace, scratch), fixed from construction. V8 (i) builds an object literal's boilerplate
 * at the literal's second run with 0 in every computed field, widening those fields in the hidden
 * class of the literal's first object, and (ii) keeps a field whose first value is an integer as a
 * small integer, moving its objects to a new hidden class at its first fraction. Either, after code
 * was compiled against the first model's objects, throws that code away when a second model is
 * made (its first ~10,000 records ran several times slower).
 */
export function stableShape<T extends object>(fields: T, doubles: readonly (keyof T & string)[] = []): T {
  const shaped: { [key: string]: unknown } = {};
  for (const key of Object.keys(fields)) {
    if ((doubles as readonly string[]).includes(key)) shaped[key] = Number.NaN;
    shaped[key] = (fields as { [key: string]: unknown })[key];
  }
  return shaped as T;
}
