import type { ModelSnapshot } from '../core/model-snapshot.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { ForgettingBank, type BankMemberOps } from './forgetting-bank.js';

function isIndex(value: unknown, below: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < below;
}

/**
 * The {@link ForgettingBank} of a snapshot written by `encodeForgettingBank` (undefined for header
 * `forgetting: null`): each member decoded by `decode` (the family's codec, from the member's header
 * and its `forget<slot>.` arrays; sleeping members, not saved, as the leader's own part), `sleeps` as
 * the family gives it. Refuses a malformed bank with `SnapshotError`.
 */
export function decodeForgettingBank<Member extends object>(snapshot: ModelSnapshot, ops: BankMemberOps<Member>, decode: (member: ModelSnapshot) => Member, sleeps: boolean): ForgettingBank<Member> | undefined {
  const bank = snapshot.header.forgetting as { factors?: unknown; every?: unknown; leader?: unknown; sinceForget?: unknown; awake?: unknown; wakes?: unknown; surprise?: unknown; calm?: unknown; candidates?: unknown; members?: unknown } | null | undefined;
  if (bank === null) return undefined;
  const malformed = (what: string): SnapshotError => new SnapshotError(`${snapshot.family} snapshot: adaptive forgetting ${what}`, { field: 'forgetting' });
  if (typeof bank !== 'object' || bank === undefined) throw malformed('header is missing');
  const { factors, every, leader, sinceForget, awake, wakes, surprise, calm, candidates, members } = bank;
  if (!Array.isArray(factors) || factors.length < 2 || !factors.every((f) => typeof f === 'number' && f > 0 && f <= 1)) throw malformed('factors must be at least two numbers in (0, 1]');
  const k = factors.length;
  if (!isIndex(every, Number.MAX_SAFE_INTEGER) || every < 1 || !isIndex(sinceForget, every)) throw malformed('period and count must be integers with 0 ≤ count < period');
  if (typeof awake !== 'boolean' || typeof surprise !== 'number' || !(surprise >= 0) || !isIndex(calm, Number.MAX_SAFE_INTEGER) || !isIndex(wakes, Number.MAX_SAFE_INTEGER)) throw malformed('must hold awake (a boolean), wakes and calm (counts) and surprise (a non-negative number)');
  if (!isIndex(leader, k) || !Array.isArray(candidates) || candidates.length !== k - 1 || !Array.isArray(members) || members.length !== (awake ? k - 1 : 0)) throw malformed(`must hold a leader below ${k} and ${awake ? k - 1 : 0} members`);
  if (!awake && !(sleeps && factors[leader] === 1)) throw malformed('may sleep only under a leader of factor 1, in a family whose challengers sleep');
  if (new Set([leader, ...candidates]).size !== k || !candidates.every((c) => isIndex(c, k))) throw malformed('candidates must be a permutation of the factors');
  const { forgetEvidence: evidence, forgetMemory: memory } = snapshot.arrays;
  if (evidence?.length !== k || memory?.length !== k) throw malformed(`evidence and memory must hold ${k} values each`);
  const own = { ...snapshot, header: { ...snapshot.header, forgetting: null } };
  const decoded = awake
    ? members.map((header, slot) => {
      const prefix = `forget${slot}.`;
      const arrays = Object.fromEntries(Object.entries(snapshot.arrays).filter(([name]) => name.startsWith(prefix)).map(([name, array]) => [name.slice(prefix.length), array]));
      if (typeof header !== 'object' || header === null || Array.isArray(header)) throw malformed(`member ${slot} header is malformed`);
      return decode({ ...snapshot, header: { ...header, forgetting: null }, arrays });
    })
    : Array.from({ length: k - 1 }, () => decode(own));
  return new ForgettingBank(ops, Float64Array.from(factors as number[]), every, sleeps, decoded, Int32Array.from(candidates as number[]), evidence.slice(), memory.slice(), { leader, sinceForget, awake, wakes, surprise, calm });
}

