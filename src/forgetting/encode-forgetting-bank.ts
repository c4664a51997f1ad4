import type { EncodedState } from '../core/family-codec.js';
import type { JsonValue } from '../core/model-snapshot.js';
import type { ForgettingBank } from './forgetting-bank.js';

/**
 * The snapshot part of a {@link ForgettingBank}: header `forgetting` (factors, period, leader, the
 * records since the last forgetting step, whether the challengers are awake and how often they woke, the surprise CUSUM, the
 * calm records, each slot's candidate and, awake, each member's own header) and the arrays
 * `forgetEvidence`, `forgetMemory` and, awake, `forget<slot>.<name>` (each member encoded by `encode`,
 * the family's codec), bit for bit; sleeping members are not saved. Header `forgetting: null` without a bank.
 */
export function encodeForgettingBank<Member extends object>(bank: ForgettingBank<Member> | undefined, encode: (member: Member) => EncodedState): EncodedState {
  if (bank === undefined) return { header: { forgetting: null }, arrays: {} };
  const arrays: { [name: string]: Float64Array } = { forgetEvidence: bank.evidence.slice(), forgetMemory: bank.memory.slice() };
  const { leader, sinceForget, awake, wakes, surprise, calm } = bank.counters;
  const headers: JsonValue[] = !awake ? [] : bank.members.map((member, slot) => {
    const encoded = encode(member);
    for (const [name, array] of Object.entries(encoded.arrays)) arrays[`forget${slot}.${name}`] = array;
    return encoded.header;
  });
  return {
    header: { forgetting: { factors: Array.from(bank.factors), every: bank.every, leader, sinceForget, awake, wakes, surprise, calm, candidates: Array.from(bank.candidateOf), members: headers } },
    arrays,
  };
}
