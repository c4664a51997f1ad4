import type { FamilyTraits } from './family-traits.js';

/** The traits a family definition implies: what it declares, and which optional parts it has. */
export function familyTraitsOf(definition: { readonly batching: FamilyTraits['batching']; readonly weights: boolean; readonly merge?: { readonly exact: boolean }; readonly forget?: unknown }): FamilyTraits {
  const { merge } = definition;
  return { batching: definition.batching, merge: merge === undefined ? 'none' : merge.exact ? 'exact' : 'approximate', forget: definition.forget !== undefined, weights: definition.weights };
}
