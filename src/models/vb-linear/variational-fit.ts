import { dot } from '../../linalg/dot.js';
import { gemmNt } from '../../linalg/gemm-nt.js';
import { gemv } from '../../linalg/gemv.js';
import { quadraticForm } from '../../linalg/quadratic-form.js';
import { spdInverse } from '../../linalg/spd-inverse.js';
import { updateExpectedAlpha } from './alpha-update.js';
import { vbLinearBoundConstant, vbLinearBoundWithoutConstants } from './objective.js';
import { passScratch } from './pass-scratch.js';
import type { VbLinearPosterior } from './posterior.js';
import type { VbLinearState } from './state.js';

/** Where a fit writes w_N (d) and V_N (d×d, whole): the state's own arrays in a refit. */
export interface VbLinearFitTarget {
  readonly w: Float64Array;
  readonly V: Float64Array;
}

/** What a fit returns besides w_N and V_N (written to its {@link VbLinearFitTarget}). */
export type VbLinearFit = Omit<VbLinearPosterior, 'w' | 'V' | 'invV'>;

/**
 * Variational Bayes for linear regression from sufficient statistics (Drugowitsch §2.2, eq. 7–15;
 * ARD §2.4, eq. 27–32), reproducing VBLinLogit's vb_linear_fit(_ard): start E[α] = c0/d0, update
 * q(w, τ) then q(α), stop when |ΔL| < tol·|L| (reference tol 1e-5) or after maxIter passes. The
 * residual sum of squares is yᵀy − 2wᵀXᵀy + wᵀXᵀXw, which cancels when the fit is nearly exact, so
 * a bound decrease within that round-off (E[τ]·1e-12·(yᵀy + 2|wᵀXᵀy| + wᵀXᵀXw), plus 1e-10·|L|)
 * counts as convergence. A larger decrease (the reference raises an error) can only come from
 * round-off in a badly conditioned V⁻¹; the fit then stops and reports `stopReason:
 * 'bound-decreased'` (with the breaking iterate, as vb_logit_fit does) instead of failing a stream.
 *
 * `warmAlpha` (E[α] of an earlier fit, e.g. before the last update) replaces the start c0/d0; the
 * stopping rule is the same, so the result agrees with the cold fit to the fit's own tolerance.
 * Without it the fit is the reference's, bit for bit. w_N and V_N are written into `into` (nothing of d² is allocated;
 * the passes' scratch is this thread's {@link passScratch}); the arrays are read only as the fit writes them.
 *
 * ARD pruning (`state.pruneThreshold` finite): when the passes have converged, each kept weight's
 * relevance is judged by the precision that maximises the marginal likelihood given the other
 * weights (Tipping & Faul 2003): with the sparsity and quality factors s_i = E[τ](1/V_ii − α_i)
 * and q_i = E[τ]·w_i/V_ii (the data's precision and precision-weighted mean for w_i alone), that
 * optimum is s_i²/(q_i² − s_i) when q_i² > s_i and ∞ otherwise. It is the fixed point that
 * scikit-learn's (MacKay's) re-estimate converges to, and that VB's E[α_i] approaches only by steps of
 * the order of N per pass; a weight whose optimum reaches the threshold (in the units of a prior
 * precision of w_i, τ·α_i, as scikit-learn's threshold_lambda) is removed from the model for the rest
 * of the fit: its mean is exactly 0, its row and column of V_N (and V_N⁻¹) are 0, its α is no longer
 * updated and it leaves the bound (whose constant then counts the kept weights only). At the same
 * point a pruned weight whose optimum (from the data left unexplained by the kept ones)
 * has fallen below the threshold re-enters (once per fit), starting at that precision. A change restarts the
 * passes and the relative-change rule (the bound is of another model); judging at convergence, not
 * at an early pass, keeps a poor early E[τ] from pruning relevant weights. `warmPruned` (the last
 * fit's pruned weights) starts a warm refit with them out.
 */

export function fitVbLinear(state: VbLinearState, into: VbLinearFitTarget, warmAlpha?: Float64Array, warmPruned?: ArrayLike<number>): VbLinearFit {
  const { dim: d, ard, prior, xtx, xty, yty, n } = state;
  const an = state.prior.a0 + n / 2;
  const cn = ard ? prior.c0 + 0.5 : prior.c0 + d / 2;
  const alphaCount = ard ? d : 1;
  const threshold = ard ? state.pruneThreshold : Infinity;
  const expectedAlpha = new Float64Array(alphaCount).fill(prior.c0 / prior.d0);
  if (warmAlpha !== undefined && warmAlpha.length === alphaCount && warmAlpha.every((a) => a > 0 && Number.isFinite(a))) {
    for (let i = 0; i < alphaCount; i++) expectedAlpha[i] = Math.min(warmAlpha[i], threshold);
  }
  const pruning = Number.isFinite(threshold);
  const pruned = new Uint8Array(d);
  let prunedCount = 0;
  if (pruning && warmPruned !== undefined) for (let i = 0; i < d; i++) if (warmPruned[i] === 1) { pruned[i] = 1; prunedCount++; }
  const reentered = new Uint8Array(d);
  // Whether the last pass ran with weights pruned (on the kept block): V_N is then written whole once, at the end.
  let lastPassPruned = false;
  const alphaOfV = new Float64Array(alphaCount);
  const { w, V } = into;
  const d2 = d * d;
  const scratch = passScratch.take(pruning ? 3 * d2 : d2);
  // A pass on all the weights uses the first d² for V_N⁻¹ (the kept blocks are used only by passes with weights pruned).
  const invV = scratch.subarray(0, d2);
  // With weights pruned a pass runs on the m kept ones (in order): their block of XᵀX, V_N and Xᵀy, k·m² instead of d².
  const kept = new Int32Array(pruning ? d : 0);
  let m = d;
  // Whether kept, m and the kept blocks of XᵀX and Xᵀy must be gathered again: they change only with the pruned set (a full pass overwrites keptXtx).
  let keptStale = true;
  const keptXtx = scratch.subarray(0, pruning ? d2 : 0);
  const keptPrecision = scratch.subarray(d2, pruning ? 2 * d2 : d2);
  const keptV = scratch.subarray(2 * d2, pruning ? 3 * d2 : 2 * d2);
  const keptXty = new Float64Array(pruning ? d : 0);
  const keptW = new Float64Array(pruning ? d : 0);
  let logDetV = 0;
  let bn = 0;
  let expectedTau = 0;
  let L = 0;
  let lLast = -Number.MAX_VALUE;
  let iterations = 0;
  let stopReason: VbLinearPosterior['stopReason'] = 'max-iterations';
  for (let iter = 1; iter <= state.maxIter; iter++) {
    iterations = iter;
    alphaOfV.set(expectedAlpha);
    lastPassPruned = prunedCount > 0;
    let wXtXw: number;
    let traceXtxV = 0;
    if (lastPassPruned) {
      // The pass on the kept block: V_N, w_N, wᵀXᵀXw and tr(XᵀX·V_N) are those of the whole matrices bit for bit, whose
      // pruned rows and columns are 0 in V_N and w_N (their terms are ±0, and a sum from +0 is never −0). V_N's
      // diagonal is written for q(α) and the pruning test; the whole V_N once, at the end.
      if (keptStale) {
        m = keptOf(pruned, d, kept);
        for (let a = 0; a < m; a++) {
          const row = kept[a] * d;
          for (let b = 0; b < m; b++) keptXtx[a * m + b] = xtx[row + kept[b]];
          keptXty[a] = xty[kept[a]];
        }
        keptStale = false;
      }
      const m2 = m * m;
      keptPrecision.set(keptXtx.subarray(0, m2));
      for (let a = 0; a < m; a++) keptPrecision[a * m + a] += expectedAlpha[kept[a]];
      logDetV = -(m === 0 ? 0 : spdInverse(keptPrecision.subarray(0, m2), m, keptV.subarray(0, m2), undefined, { what: 'posterior precision V_N⁻¹' }));
      gemv(keptV, m, m, keptXty, keptW);
      w.fill(0);
      for (let a = 0; a < m; a++) {
        w[kept[a]] = keptW[a];
        V[kept[a] * d + kept[a]] = keptV[a * m + a];
      }
      wXtXw = quadraticForm(keptXtx, m, keptW);
      for (let k = 0; k < m2; k++) traceXtxV += keptXtx[k] * keptV[k];
    } else {
      invV.set(xtx);
      keptStale = true;
      for (let i = 0; i < d; i++) invV[i * d + i] += ard ? expectedAlpha[i] : expectedAlpha[0];
      logDetV = -spdInverse(invV, d, V, undefined, { what: 'posterior precision V_N⁻¹' });
      gemv(V, d, d, xty, w);
      wXtXw = quadraticForm(xtx, d, w);
      for (let i = 0; i < d * d; i++) traceXtxV += xtx[i] * V[i];
    }
    const wXty = dot(w, xty, d);
    const sse = Math.max(0, yty - 2 * wXty + wXtXw);
    const ww = dot(w, w, d);
    let penalty = 0;
    if (ard) for (let i = 0; i < d; i++) penalty += expectedAlpha[i] * w[i] * w[i];
    else penalty = expectedAlpha[0] * ww;
    bn = prior.b0 + 0.5 * (sse + penalty);
    expectedTau = an / bn;
    const sumLogDn = updateExpectedAlpha(state, w, V, expectedTau, pruned, expectedAlpha);
    L = vbLinearBoundWithoutConstants({ expectedTau, sse, traceXtxV, logDetV: logDetV, an, bn, cn, sumLogDn, alphaCount: alphaCount - prunedCount }, prior);
    if (lLast > L) {
      const roundOff = 1e-10 * Math.abs(L) + 1e-12 * expectedTau * (yty + 2 * Math.abs(wXty) + wXtXw);
      stopReason = lLast - L > roundOff ? 'bound-decreased' : 'converged';
    } else if (Math.abs(lLast - L) < Math.abs(state.tol * L)) {
      stopReason = 'converged';
    } else {
      lLast = L;
      continue;
    }
    if (stopReason === 'converged' && pruning) {
      let changed = 0;
      const candidates = reentryProducts(d, xtx, keptV, kept, lastPassPruned ? m : d, pruned, reentered);
      for (let i = 0, k = 0; i < d; i++) {
        if (pruned[i] === 1) {
          if (reentered[i] === 1) continue;
          const precision = reentryPrecision(i, d, candidates, k++, xtx, xty, w, expectedTau);
          // A precision that underflows to 0 (a feature of scale ~1e-155: s_i² < 5e-324) is no prior: the weight stays pruned.
          if (precision < threshold && precision / expectedTau > 0) { pruned[i] = 2; reentered[i] = 1; expectedAlpha[i] = precision / expectedTau; changed++; }
        } else if (optimalPrecision(V[i * d + i], w[i], alphaOfV[i], expectedTau) >= threshold) {
          pruned[i] = 1;
          changed++;
        }
      }
      if (changed > 0) {
        keptStale = true;
        prunedCount = 0;
        for (let i = 0; i < d; i++) if (pruned[i] === 2) pruned[i] = 0; else prunedCount += pruned[i];
        lLast = -Number.MAX_VALUE;
        stopReason = 'max-iterations';
        continue;
      }
    }
    break;
  }
  L += vbLinearBoundConstant(n, d - prunedCount, alphaCount - prunedCount, prior);
  if (lastPassPruned) {
    V.fill(0);
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) V[kept[a] * d + kept[b]] = keptV[a * m + b];
  }
  passScratch.trim();
  return { logDetV, an, bn, E_a: expectedAlpha, alpha: alphaOfV, L, iterations, stopReason, pruned };
}

/** Writes the weights not pruned, in order, to the front of `kept` and returns how many. */
function keptOf(pruned: Uint8Array, d: number, kept: Int32Array): number {
  let m = 0;
  for (let i = 0; i < d; i++) if (pruned[i] === 0) kept[m++] = i;
  return m;
}

/** What {@link reentryPrecision} reads: the m kept weights (in order), and for each pruned weight that may re-enter (in order of i) its column c_i of XᵀX on the kept rows and V_N·c_i there. */
interface ReentryProducts {
  readonly kept: Int32Array;
  readonly m: number;
  readonly columns: Float64Array;
  readonly products: Float64Array;
}

/**
 * {@link ReentryProducts} from the kept block of V_N (m×m; V_N is 0 on the pruned rows and columns, so the terms
 * left out are ±0 and a sum from +0 is never −0: no bit changes): the k candidates' columns on the kept rows (k×m)
 * and V_N·c_i (k×m, one WebAssembly product for all), k·m² instead of k·d².
 */
function reentryProducts(d: number, xtx: Float64Array, keptV: Float64Array, kept: Int32Array, m: number, pruned: Uint8Array, reentered: Uint8Array): ReentryProducts {
  let k = 0;
  for (let i = 0; i < d; i++) if (pruned[i] === 1 && reentered[i] === 0) k++;
  const columns = new Float64Array(k * m);
  const products = new Float64Array(k * m);
  for (let i = 0, c = 0; i < d; i++) {
    if (pruned[i] !== 1 || reentered[i] === 1) continue;
    for (let a = 0; a < m; a++) columns[c * m + a] = xtx[kept[a] * d + i];
    c++;
  }
  // products[c·m + a] = Σ_b c_b·V_ab over the kept b, the terms in order of b (gemmNt's order), as the row sums of V_N·c.
  gemmNt(products, m, columns, keptV, k, m, m, false);
  return { kept, m, columns, products };
}

/**
 * {@link optimalPrecision} of a pruned weight i, which is out of V_N and w_N: s_i = E[τ](XᵀX_ii −
 * c_iᵀV_N c_i) and q_i = E[τ](Xᵀy_i − c_iᵀw_N) with c_i the column i of XᵀX (Tipping & Faul 2003,
 * with α_i = ∞), from row k of {@link reentryProducts}; the pruned rows' terms are ±0 (w_N and V_N are 0 there) and
 * left out. O(d).
 */
function reentryPrecision(i: number, d: number, candidates: ReentryProducts, k: number, xtx: Float64Array, xty: Float64Array, w: Float64Array, expectedTau: number): number {
  const { kept, m, columns, products } = candidates;
  let cVc = 0;
  let cw = 0;
  for (let a = 0; a < m; a++) {
    const ca = columns[k * m + a];
    if (ca === 0) continue;
    cVc += ca * products[k * m + a];
    cw += ca * w[kept[a]];
  }
  const s = expectedTau * (xtx[i * d + i] - cVc);
  const q = expectedTau * (xty[i] - cw);
  const excess = q * q - s;
  return excess > 0 ? (s * s) / excess : Infinity;
}

/**
 * The prior precision of w_i (τ·α_i units) that maximises the marginal likelihood with the other
 * weights' q fixed (Tipping & Faul 2003), from V_ii, w_i and the α_i V_N is built with;
 * Infinity when the data do not favour the weight (q_i² ≤ s_i).
 */
function optimalPrecision(vii: number, wi: number, alphaI: number, expectedTau: number): number {
  const s = expectedTau * (1 / vii - alphaI);
  const q = (expectedTau * wi) / vii;
  const excess = q * q - s;
  return excess > 0 ? (s * s) / excess : Infinity;
}
