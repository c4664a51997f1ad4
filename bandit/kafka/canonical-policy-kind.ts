import type { BanditPolicyConfig } from './create-bandit-policy.js';

/** Other spellings taken for a policy kind: `linucb` (how `bandit:evaluate` once spelled LinUCB) is `lin-ucb`. */
const ALIASES: { readonly [alias: string]: BanditPolicyConfig['kind'] } = { linucb: 'lin-ucb' };

/**
 * The canonical spelling of policy kind `kind` (thompson, lin-ucb, epsilon-greedy; anything else is
 * returned as it is, for the caller to refuse), with a one-line note for the user when `kind` was
 * an alias, naming `where` it was read.
 */
export function canonicalPolicyKind(kind: string, where: string): { readonly kind: string; readonly note?: string } {
  const canonical = Object.hasOwn(ALIASES, kind) ? ALIASES[kind] : undefined;
  return canonical === undefined ? { kind } : { kind: canonical, note: `note: ${where} ${kind} is read as ${canonical}, its canonical spelling` };
}
