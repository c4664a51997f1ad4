import { checkSnapshot } from '../../core/check-snapshot.js';
import type { FamilyCodec } from '../../core/family-codec.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import type { AdfLink, AdfState } from './state.js';

/** The snapshot of `adf-<link>` (layout 1): the prior, w, V and the scalars ln|V| and records, bit for bit. */
export function adfCodec(link: AdfLink): FamilyCodec<AdfState> {
  const id = `adf-${link}`;
  return {
    version: 1,
    encode: (s) => ({
      header: { quadratureNodes: s.quadratureNodes },
      arrays: { priorMean: s.priorMean.slice(), priorCovariance: s.priorCovariance.slice(), w: s.posterior.w.slice(), V: s.posterior.V.slice(), scalars: Float64Array.of(s.posterior.logDetV, s.records) },
    }),
    decode(snapshot) {
      const d = snapshot.dim;
      const { quadratureNodes } = snapshot.header as { quadratureNodes?: unknown };
      if (typeof quadratureNodes !== 'number' || !Number.isInteger(quadratureNodes) || quadratureNodes < 1 || quadratureNodes > 360) throw new SnapshotError(`${id} snapshot header is malformed`, { field: 'header' });
      const a = checkSnapshot(snapshot, id, 1, { priorMean: d, priorCovariance: d * d, w: d, V: d * d, scalars: 2 });
      return {
        dim: d, link, quadratureNodes, priorMean: a.priorMean.slice(), priorCovariance: a.priorCovariance.slice(), records: a.scalars[1],
        posterior: { w: a.w.slice(), V: a.V.slice(), logDetV: a.scalars[0] },
      };
    },
  };
}
