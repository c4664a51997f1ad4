import type { EncodedState } from '../core/family-codec.js';
import type { JsonValue } from '../core/model-snapshot.js';
import type { ForgettingBank } from './forgetting-bank.js';

/**
 * The snapshot part of a {@link ForgettingBank}: header `forgetting` (factors, period, leader, the
 * records since the last forgetting step, each slot's candidate and each member's own header) and the
 * arrays `forgetEvidence` and `forget<slot>.<name>` (each member encoded by `encode`, the family's
 * codec), bit for bit; header `forgetting: null` without a bank.
 */
export function encodeForgettingBank<Member extends object>(bank: ForgettingBank<Member> | undefined, encode: (member: Member) => EncodedState): EncodedState {
  if (bank === undefined) return { header: { forgetting: null }, arrays: {} };
  const arrays: { [name: string]: Float64Array } = { forgetEvidence: bank.evidence.slice() };
  const headers: JsonValue[] = bank.members.map((member, slot) => {
    const encoded = encode(member);
    for (const [name, array] of Object.entries(encoded.arrays)) arrays[`forget${slot}.${name}`] = array;
    return encoded.header;
  });
  return {
    header: { forgetting: { factors: Array.from(bank.factors), every: bank.every, leader: bank.leader, sinceForget: bank.sinceForget, candidates: Array.from(bank.candidateOf), members: headers } },
    arrays,
  };
}
