/** What a family promises about streams, for users choosing one and for the conformance suite. */
export interface FamilyTraits {
  /**
   * `invariant`: a stream cut into batches anywhere gives the same posterior (bit for bit: the
   * family accumulates statistics or updates record by record); `dependent`: where the batches are
   * cut changes the posterior (each update fits its batch with the current posterior as prior, or
   * takes optimiser steps on it).
   */
  readonly batching: 'invariant' | 'dependent';
  /** `exact`: merge(A, B) equals one model fed A's then B's records; `approximate`: the SDA-Bayes combination; `none`: no merge. */
  readonly merge: 'exact' | 'approximate' | 'none';
  /** Whether `forget(factor)` (power prior toward the prior) is offered. */
  readonly forget: boolean;
  /** Whether record weights other than 1 are honoured. */
  readonly weights: boolean;
}
