import type { DirectStatistics } from './state.js';

/** Block edge of the cache-blocked transpose. */
const BLOCK = 32;

/**
 * Copies the upper triangle of ΦᵀΦ into the lower one (O(b²), cache-blocked, once per batch rather
 * than per row): {@link accumulateDirect} writes only the upper triangle and marks the statistics
 * incomplete. Call before anything reads `gram` whole (the `direct` step does, so a committed state
 * is always complete; the objectives do, for statistics accumulated by hand).
 */
export function completeGram(stats: DirectStatistics): void {
  if (stats.complete) return;
  const { b, gram } = stats;
  for (let i0 = 0; i0 < b; i0 += BLOCK) {
    for (let j0 = i0; j0 < b; j0 += BLOCK) {
      const i1 = Math.min(b, i0 + BLOCK);
      const j1 = Math.min(b, j0 + BLOCK);
      for (let i = i0; i < i1; i++) for (let j = Math.max(j0, i + 1); j < j1; j++) gram[j * b + i] = gram[i * b + j];
    }
  }
  stats.complete = true;
}
