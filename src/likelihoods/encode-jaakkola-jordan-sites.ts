import type { JaakkolaJordanSites } from './jaakkola-jordan-sites.js';

/** The snapshot arrays of a replayed window: only the records in use (`siteX` count × d, `siteY` ±1, `siteWeights`, `siteXi`). */
export function encodeJaakkolaJordanSites(sites: JaakkolaJordanSites, d: number): { siteX: Float64Array; siteY: Float64Array; siteWeights: Float64Array; siteXi: Float64Array } {
  const n = sites.count;
  return { siteX: sites.x.slice(0, n * d), siteY: sites.y.slice(0, n), siteWeights: sites.weights.slice(0, n), siteXi: sites.xi.slice(0, n) };
}
