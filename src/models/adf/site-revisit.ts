import { stableShape } from '../../core/stable-shape.js';

/**
 * What one EP revisit of a window site changes ({@link planSiteRevisit}): the site's new precision
 * τ′ and shift h′, w's step along V·x, ln g (ln|V| falls by it) and the coefficient c = −Δτ/g of
 * V ← V + c·(Vx)(Vx)ᵀ.
 */
export interface SiteRevisit {
  precision: number;
  shift: number;
  step: number;
  logG: number;
  coefficient: number;
}

/** An empty {@link SiteRevisit}. */
export function emptySiteRevisit(): SiteRevisit {
  return stableShape({ precision: 0, shift: 0, step: 0, logG: 0, coefficient: 0 }, ['precision', 'shift', 'step', 'logG', 'coefficient']);
}
