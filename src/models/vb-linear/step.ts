import type { Batch } from '../../core/batch.js';
import type { UpdateStats } from '../../core/online-model.js';
import { dot } from '../../linalg/dot.js';
import { gramAccumulateUpper } from '../../linalg/gram-accumulate-upper.js';
import { mirrorUpper } from '../../linalg/mirror-upper.js';
import { shermanMorrisonPairUpper } from '../../linalg/sherman-morrison-pair-upper.js';
import { heldAlphaPosterior } from './held-alpha-posterior.js';
import { refitVbLinear } from './refit.js';
import type { VbLinearState } from './state.js';
import type { VbLinearWorkspace } from './workspace.js';

/** N counts as at least this many records per weight in the refit rule, so refits (O(d³)) come at most every refitFraction·10·d records: O(d²) per record, amortised. */
const REFIT_SPACING = 10;

/** While N is below this many records per weight, every update refits E[α]: with fewer records than weights the fit of E[α] moves most, and a value held from the first records fits hard (O(d⁴) once per model). */
const EARLY_RECORDS_PER_WEIGHT = 2;

/** A batch of at least d/4 records between refits takes q(w, τ) for the held E[α] from the statistics in one O(d³) solve ({@link heldAlphaPosterior}) rather than one O(d²) update per record (measured the faster from about there). */
const BLOCK_RECORDS_PER_WEIGHT = 4;

/**
 * Adds a (validated) batch to the sufficient statistics (XᵀX += Xᵀ·W·X, Xᵀy += Xᵀ·W·y,
 * yᵀy += yᵀ·W·y, N += Σw; Drugowitsch eq. 7–10 need nothing else), then updates the posterior:
 * a full refit (`refitVbLinear`) on the first data, on every update while N < 2d (the early stream)
 * and when the weighted records since the last one reach `refitFraction`·max(N, 10·d); else q(w, τ)
 * for the E[α] held: a batch of at least d/4 records by one solve from the statistics
 * ({@link heldAlphaPosterior}), a smaller one record by record — Sherman–Morrison on V_N
 * (eq. 85), w_N ← w_N + ω·r·V_N x/(1 + ω·xᵀV_N x), ln|V_N| by the determinant lemma (eq. 86–87),
 * a_N += ω/2 and b_N += ½·ω·r²/(1 + ω·xᵀV_N x) with r = y − w_Nᵀx: the exact posterior for that
 * E[α], O(d²) per record, on the upper triangles of XᵀX and V_N (the next refit mirrors them). XᵀX
 * is the same bit for bit either way (the terms of `gramAccumulate`, in row order).
 */
export function vbLinearStep(state: VbLinearState, batch: Batch, workspace: VbLinearWorkspace): UpdateStats {
  const { x, y, n, d, weights } = batch;
  let added = 0;
  for (let r = 0; r < n; r++) added += weights === undefined ? 1 : weights[r];
  const first = state.n === 0;
  state.records += n;
  state.sinceRefit += added;
  const early = state.n + added < EARLY_RECORDS_PER_WEIGHT * d;
  if (first || early || state.sinceRefit >= state.refitFraction * Math.max(state.n + added, REFIT_SPACING * d)) {
    addBatch(state, batch);
    refitVbLinear(state);
  } else if (n * BLOCK_RECORDS_PER_WEIGHT >= d) {
    addBatch(state, batch);
    mirrorUpper(state.xtx, d);
    workspace.block ??= new Float64Array(3 * d * d);
    heldAlphaPosterior(state, workspace.block);
    state.an = state.prior.a0 + state.n / 2;
  } else {
    for (let r = 0; r < n; r++) addRecord(state, workspace, x, y[r], r * d, weights === undefined ? 1 : weights[r]);
    state.an = state.prior.a0 + state.n / 2;
  }
  return { records: n };
}

/** The batch into XᵀX's upper triangle (the caller mirrors it) and Xᵀy (one WebAssembly call; the terms of {@link addTargets}), yᵀy and N. */
function addBatch(state: VbLinearState, batch: Batch): void {
  const { x, y, n, d, weights } = batch;
  gramAccumulateUpper(x, n, d, state.xtx, weights, 1, y, state.xty);
  for (let r = 0; r < n; r++) {
    const omega = weights === undefined ? 1 : weights[r];
    state.yty += omega * y[r] * y[r];
    state.n += omega;
  }
}

/** Xᵀy, yᵀy and N of one record. */
function addTargets(state: VbLinearState, x: Float64Array, y: number, base: number, omega: number): void {
  const wy = omega * y;
  for (let j = 0; j < state.dim; j++) state.xty[j] += wy * x[base + j];
  state.yty += wy * y;
  state.n += omega;
}

/** One record into the statistics and into q(w, τ) with E[α] held (the rank-one updates of the upper triangles of XᵀX and V_N in one WebAssembly call). */
function addRecord(state: VbLinearState, workspace: VbLinearWorkspace, x: Float64Array, y: number, base: number, omega: number): void {
  const d = state.dim;
  const { xtx, V, w } = state;
  addTargets(state, x, y, base, omega);
  const reuse = predictedHere(workspace, x, base, d);
  const u = reuse ? workspace.predictedVx : workspace.scratch;
  // u = V_N·x (unless predicted), xᵀV_N x, and the upper triangles only (the next refit mirrors them): XᵀX
  // gets (ω·x_i)·x_j as in gramAccumulate, V_N gets shrink·(u_i·u_j) with shrink = −ω/(1 + ω·xᵀV_N x).
  const xVx = shermanMorrisonPairUpper(xtx, omega, x, base, V, u, d, reuse);
  const residual = y - dot(w, x, d, 0, base);
  const denominator = 1 + omega * xVx;
  const gain = (omega * residual) / denominator;
  for (let j = 0; j < d; j++) w[j] += gain * u[j];
  state.logDetV -= Math.log1p(omega * xVx);
  state.bn += (0.5 * omega * residual * residual) / denominator;
}

/** Whether the workspace holds V_N·x for this x (the record just predicted, the state unchanged since); the cache is used once. */
function predictedHere(workspace: VbLinearWorkspace, x: Float64Array, base: number, d: number): boolean {
  if (!workspace.predictedValid) return false;
  workspace.predictedValid = false;
  const { predictedX } = workspace;
  for (let j = 0; j < d; j++) if (predictedX[j] !== x[base + j]) return false;
  return true;
}
