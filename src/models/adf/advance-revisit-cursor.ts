import type { SiteWindow } from './site-window.js';

/** Moves the window's revisit cursor one slot back (from the first slot to the newest filled one) and returns the slot it lands on. */
export function advanceRevisitCursor(sites: SiteWindow): number {
  if (sites.cursor === 0) sites.cursor = sites.count;
  sites.cursor -= 1;
  return sites.cursor;
}
