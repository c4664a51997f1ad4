import type { ModelSnapshot } from '../core/model-snapshot.js';
import { SnapshotError } from '../core/snapshot-error.js';
import { jaakkolaJordanSites, type JaakkolaJordanSites } from './jaakkola-jordan-sites.js';

/**
 * The replayed window of a snapshot (the arrays of `encodeJaakkolaJordanSites`), preallocated to
 * `capacity` records; refuses arrays of mismatched lengths, more records than the capacity or than
 * the `records` seen, labels other than ±1 and negative ξ.
 */
export function decodeJaakkolaJordanSites(snapshot: ModelSnapshot, capacity: number, records: number): JaakkolaJordanSites {
  const d = snapshot.dim;
  const { siteX, siteY, siteWeights, siteXi } = snapshot.arrays;
  const n = siteY?.length ?? -1;
  if (n < 0 || n > capacity || n > records || siteX?.length !== n * d || siteWeights?.length !== n || siteXi?.length !== n) {
    throw new SnapshotError(`snapshot arrays "siteX", "siteY", "siteWeights", "siteXi" must hold b × ${d}, b, b and b values, b ≤ replay (${capacity}) and the records seen`, { field: 'siteY', value: n });
  }
  if (!siteY.every((y) => y === 1 || y === -1) || !siteXi.every((xi) => xi >= 0)) throw new SnapshotError('snapshot replayed records need labels ±1 and ξ ≥ 0', { field: 'siteY' });
  const sites = jaakkolaJordanSites(capacity, d);
  sites.x.set(siteX);
  sites.y.set(siteY);
  sites.weights.set(siteWeights);
  sites.xi.set(siteXi);
  sites.count = n;
  return sites;
}
