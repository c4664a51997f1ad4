/** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of adjacent letters each cost 1. */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let distance = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, beforePrevious[j - 2] + 1);
      current.push(distance);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known name closest to `name` when it is plausibly a misspelling of it (case-insensitive equal,
 * or at most a third of its letters edited or swapped, at least 1, at most 3), else undefined: the
 * "did you mean" of an error.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.min(3, Math.max(1, Math.floor(name.length / 3))) ? best : undefined;
}
