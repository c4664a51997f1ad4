import type { JsonValue, ModelSnapshot } from '../core/model-snapshot.js';

/**
 * Migration of a snapshot whose bank predates sleeping challengers (adf-* layout 3, vb-logit-online
 * layout 2) to the next layout: the bank awake, as it was, its wakes, surprise and calm 0, and every
 * candidate's memory the records it has absorbed (`records`).
 */
export function addSleepingChallengers(snapshot: ModelSnapshot, records: number): ModelSnapshot {
  const bank = snapshot.header.forgetting as { readonly [key: string]: JsonValue } | null | undefined;
  const next = { ...snapshot, version: snapshot.version + 1 };
  if (bank === null || typeof bank !== 'object' || !Array.isArray(bank.factors)) return next;
  return {
    ...next,
    header: { ...snapshot.header, forgetting: { ...bank, awake: true, wakes: 0, surprise: 0, calm: 0 } },
    arrays: { ...snapshot.arrays, forgetMemory: new Float64Array(bank.factors.length).fill(records) },
  };
}
