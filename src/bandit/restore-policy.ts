import type { ModelSnapshot } from '../core/model-snapshot.js';
import { SnapshotError } from '../core/snapshot-error.js';
import type { BanditPolicy } from './bandit-policy.js';
import { EpsilonGreedyPolicy } from './epsilon-greedy-policy.js';
import { LinUcbPolicy } from './lin-ucb-policy.js';
import { ThompsonPolicy } from './thompson-policy.js';

/** Any policy from its `snapshot()` (also after `encodeSnapshot` / `decodeSnapshot`), continuing bit for bit. */
export function restorePolicy(snapshot: ModelSnapshot): BanditPolicy {
  switch (snapshot.family) {
    case 'bandit/thompson': return ThompsonPolicy.restore(snapshot);
    case 'bandit/lin-ucb': return LinUcbPolicy.restore(snapshot);
    case 'bandit/epsilon-greedy': return EpsilonGreedyPolicy.restore(snapshot);
    default: throw new SnapshotError(`not a policy snapshot: family ${snapshot.family}`);
  }
}
