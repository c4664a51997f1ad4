import { foldJaakkolaJordanSites, type JaakkolaJordanFoldTarget } from './fold-jaakkola-jordan-sites.js';
import type { JaakkolaJordanSites } from './jaakkola-jordan-sites.js';

/**
 * Fits a block of records (row-major `x`, labels ±1, `weights` or 1 each) against the frozen sites: `xi`
 * holds each record's start ξ (0 for a new record: λ = 1/8, the reference start) and receives the ξ
 * behind its site in the fitted q.
 */
export type JaakkolaJordanBlockFit = (x: Float64Array, y: Float64Array, weights: Float64Array | undefined, xi: Float64Array, n: number) => void;

/** Copies records `from` … `from + n − 1` of a batch to the end of the window, ξ from `xi` (same indexing) or 0. */
function append(sites: JaakkolaJordanSites, d: number, x: Float64Array, y: Float64Array, weights: Float64Array | undefined, from: number, n: number, xi?: Float64Array): void {
  const at = sites.count;
  sites.x.set(x.subarray(from * d, (from + n) * d), at * d);
  sites.y.set(y.subarray(from, from + n), at);
  if (weights === undefined) sites.weights.fill(1, at, at + n);
  else sites.weights.set(weights.subarray(from, from + n), at);
  if (xi === undefined) sites.xi.fill(0, at, at + n);
  else sites.xi.set(xi.subarray(from, from + n), at);
  sites.count += n;
}

/** Freezes the window's oldest `count` sites into `target` and drops them. */
function evict(sites: JaakkolaJordanSites, d: number, count: number, target: JaakkolaJordanFoldTarget): void {
  if (count === 0) return;
  foldJaakkolaJordanSites(sites.x, sites.y, sites.weights, sites.xi, 0, count, d, target);
  const kept = sites.count;
  sites.x.copyWithin(0, count * d, kept * d);
  sites.y.copyWithin(0, count, kept);
  sites.weights.copyWithin(0, count, kept);
  sites.xi.copyWithin(0, count, kept);
  sites.count -= count;
}

/**
 * One update of a Jaakkola–Jordan model with a bounded replay of local parameters: the window's oldest
 * records are frozen into `target` ({@link foldJaakkolaJordanSites}, at their last ξ) until the batch
 * fits, the batch joins the window at ξ = 0, and `fit` re-optimises every site of the window
 * (warm-started at their ξ) with the frozen sites as the prior. A batch larger than the window is
 * fitted alone (the window frozen first) and its oldest records frozen afterwards at their fitted ξ,
 * the newest `capacity` kept. With capacity 0 this is streaming VB (each batch's ξ optimised once,
 * then frozen); with a capacity of at least the records seen, any batching ends at the fixed point of
 * the one-batch fit. `xiScratch` holds at least n values. `target` holds the frozen sites before `fit` runs.
 */
export function replayJaakkolaJordanSites(sites: JaakkolaJordanSites, d: number, x: Float64Array, y: Float64Array, weights: Float64Array | undefined, n: number,
  target: JaakkolaJordanFoldTarget, xiScratch: Float64Array, fit: JaakkolaJordanBlockFit): void {
  const capacity = sites.y.length;
  if (n > capacity) {
    evict(sites, d, sites.count, target);
    xiScratch.fill(0, 0, n);
    fit(x, y, weights, xiScratch, n);
    foldJaakkolaJordanSites(x, y, weights, xiScratch, 0, n - capacity, d, target);
    append(sites, d, x, y, weights, n - capacity, capacity, xiScratch);
    return;
  }
  evict(sites, d, Math.max(0, sites.count + n - capacity), target);
  append(sites, d, x, y, weights, 0, n);
  fit(sites.x, sites.y, sites.weights, sites.xi, sites.count);
}
