import { checkSnapshot } from '../../core/check-snapshot.js';
import type { EncodedState, FamilyCodec } from '../../core/family-codec.js';
import type { SnapshotProblem } from '../../core/snapshot-problem.js';
import { addSleepingChallengers } from '../../forgetting/add-sleeping-challengers.js';
import { decodeForgettingBank } from '../../forgetting/decode-forgetting-bank.js';
import { encodeForgettingBank } from '../../forgetting/encode-forgetting-bank.js';
import { adfMemberOps } from './adf-member-ops.js';
import type { ModelSnapshot } from '../../core/model-snapshot.js';
import { snapshotChecks } from '../../core/snapshot-checks.js';
import { SnapshotError } from '../../core/snapshot-error.js';
import { emptySiteWindow } from './site-window.js';
import type { AdfLink, AdfState } from './state.js';

/** Layout 1 → 2: a model of before the site window was plain ADF, so window 0 (it then goes on exactly as it would have). */
function addSiteWindow(snapshot: ModelSnapshot): ModelSnapshot {
  const empty = new Float64Array(0);
  return {
    ...snapshot, version: 2,
    header: { ...snapshot.header, window: 0, revisits: 0 },
    arrays: { ...snapshot.arrays, siteX: empty, siteY: empty, siteWeight: empty, sitePrecision: empty, siteShift: empty, siteCounters: Float64Array.of(0, 0, 0, 0, 0) },
  };
}

/** Layout 2 → 3: a model of before adaptive forgetting goes on without it, exactly as it would have. */
function addForgetting(snapshot: ModelSnapshot): ModelSnapshot {
  return { ...snapshot, version: 3, header: { ...snapshot.header, forgetting: null } };
}

/** Layout 3 → 4: an adaptive forgetting bank of before sleeping challengers restores awake, as it was. */
function addSleeping(snapshot: ModelSnapshot): ModelSnapshot {
  return addSleepingChallengers(snapshot, snapshot.arrays.scalars?.[1] ?? 0);
}

function isCount(value: unknown, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

/**
 * The snapshot of `adf-<link>` (layout 4): the prior, w, V, the scalars ln|V| and records, and the
 * site window — its filled slots (`siteX` count × d, `siteY`, `siteWeight`, `sitePrecision`,
 * `siteShift`) and `siteCounters` (count, head, cursor, written, rescaled) — and the adaptive forgetting bank
 * (`encodeForgettingBank`, each candidate's posterior in this same layout), bit for bit. Layout 1 (no
 * window) restores through {@link addSiteWindow}, layout 2 (no adaptive forgetting) through {@link addForgetting}, layout 3
 * (no sleeping challengers) through {@link addSleeping}.
 */
export function adfCodec(link: AdfLink): FamilyCodec<AdfState> {
  const own = adfOwnCodec(link);
  return {
    version: 4,
    migrations: { 1: addSiteWindow, 2: addForgetting, 3: addSleeping },
    invariants: (s) => snapshotChecks.positiveDefinite('priorCovariance', s.priorCovariance, s.dim) ?? snapshotChecks.positiveDefinite('V', s.posterior.V, s.dim)
      ?? s.forgetting?.members.reduce<SnapshotProblem | undefined>((problem, member) => problem ?? snapshotChecks.positiveDefinite('V', member.posterior.V, s.dim), undefined),
    encode(s) {
      const mine = own.encode(s);
      const bank = encodeForgettingBank(s.forgetting, own.encode);
      return { header: { ...mine.header, ...bank.header }, arrays: { ...mine.arrays, ...bank.arrays } };
    },
    decode(snapshot) {
      const state = own.decode(snapshot);
      state.forgetting = decodeForgettingBank(snapshot, adfMemberOps, own.decode, link !== 'poisson');
      return state;
    },
  };
}

/** The codec of one posterior and its window, without adaptive forgetting (a bank member's, and the model's own part). */
function adfOwnCodec(link: AdfLink): { encode(s: AdfState): EncodedState; decode(snapshot: ModelSnapshot): AdfState } {
  const id = `adf-${link}`;
  return {
    encode(s) {
      const { sites, dim } = s;
      const count = sites.count;
      return {
        header: { quadratureNodes: s.quadratureNodes, window: sites.capacity, revisits: sites.revisits },
        arrays: {
          priorMean: s.priorMean.slice(), priorCovariance: s.priorCovariance.slice(), w: s.posterior.w.slice(), V: s.posterior.V.slice(),
          scalars: Float64Array.of(s.posterior.logDetV, s.records), siteX: sites.x.slice(0, count * dim), siteY: sites.y.slice(0, count),
          siteWeight: sites.weight.slice(0, count), sitePrecision: sites.precision.slice(0, count), siteShift: sites.shift.slice(0, count),
          siteCounters: Float64Array.of(count, sites.head, sites.cursor, sites.written, sites.rescaled),
        },
      };
    },
    decode(snapshot) {
      const d = snapshot.dim;
      const { quadratureNodes, window, revisits } = snapshot.header as { quadratureNodes?: unknown; window?: unknown; revisits?: unknown };
      if (!isCount(quadratureNodes, 360) || quadratureNodes < 1 || !isCount(window) || !isCount(revisits)) throw new SnapshotError(`${id} snapshot header is malformed`, { field: 'header' });
      const a = checkSnapshot(snapshot, id, 4, { priorMean: d, priorCovariance: d * d, w: d, V: d * d, scalars: 2, siteCounters: 5 });
      const [count, head, cursor, written, rescaled] = a.siteCounters;
      if (!isCount(count, window) || !isCount(head) || !isCount(cursor) || !isCount(written) || !isCount(rescaled) || written < count || (window > 0 && (head >= window || cursor > count)) || count > a.scalars[1]
        || a.siteX?.length !== count * d || [a.siteY, a.siteWeight, a.sitePrecision, a.siteShift].some((array) => array?.length !== count)) {
        throw new SnapshotError(`snapshot site window must hold count ≤ window (${window}) filled slots: siteX count × ${d}, siteY, siteWeight, sitePrecision, siteShift count values`, { field: 'siteCounters', value: count });
      }
      const sites = emptySiteWindow(d, window, revisits);
      sites.x.set(a.siteX as Float64Array);
      sites.y.set(a.siteY as Float64Array);
      sites.weight.set(a.siteWeight as Float64Array);
      sites.precision.set(a.sitePrecision as Float64Array);
      sites.shift.set(a.siteShift as Float64Array);
      sites.count = count;
      sites.head = head;
      sites.cursor = cursor;
      sites.written = written;
      sites.rescaled = rescaled;
      return {
        dim: d, link, quadratureNodes, priorMean: a.priorMean.slice(), priorCovariance: a.priorCovariance.slice(), records: a.scalars[1],
        posterior: { w: a.w.slice(), V: a.V.slice(), logDetV: a.scalars[0] }, sites, forgetting: undefined,
      };
    },
  };
}
