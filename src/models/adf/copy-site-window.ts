import type { SiteWindow } from './site-window.js';

/** Copies slot `slot`'s record (features, label, weight) from `source` to `target`. */
function copyRecord(target: SiteWindow, source: SiteWindow, slot: number, d: number): void {
  for (let i = slot * d; i < (slot + 1) * d; i++) target.x[i] = source.x[i];
  target.y[slot] = source.y[slot];
  target.weight[slot] = source.weight[slot];
}

/** Copies slot `slot`'s site (precision, shift) from `source` to `target`. */
function copySite(target: SiteWindow, source: SiteWindow, slot: number): void {
  target.precision[slot] = source.precision[slot];
  target.shift[slot] = source.shift[slot];
}

/**
 * Overwrites `target` with `source`, two windows of one model's history (the shell's backup before a
 * step and its rollback after a failed one), touching only what differs: the records written between
 * them (`written` counts every slot write) and the sites those records and their revisits changed,
 * found by replaying the backward revisit walk of `adfRecord` from the older window's counters. When
 * more changed than the window holds, or the sites were all rescaled (`forget`), everything filled is
 * copied. A single-record update then backs up O(d + revisits) numbers, not the window.
 */
export function copySiteWindow(target: SiteWindow, source: SiteWindow): void {
  const capacity = source.capacity;
  const older = target.written <= source.written ? target : source;
  const writes = Math.abs(source.written - target.written);
  const d = capacity === 0 ? 0 : source.x.length / capacity;
  if (writes >= capacity || writes * source.revisits >= capacity || target.rescaled !== source.rescaled) {
    const count = Math.max(source.count, target.count);
    target.x.set(source.x.subarray(0, count * d));
    target.y.set(source.y.subarray(0, count));
    target.weight.set(source.weight.subarray(0, count));
    target.precision.set(source.precision.subarray(0, count));
    target.shift.set(source.shift.subarray(0, count));
  } else {
    let head = older.head;
    let count = older.count;
    let cursor = older.cursor;
    for (let k = 0; k < writes; k++) {
      copyRecord(target, source, head, d);
      copySite(target, source, head);
      head = head + 1 === capacity ? 0 : head + 1;
      if (count < capacity) count += 1;
      for (let r = 0; r < source.revisits; r++) {
        if (cursor === 0) cursor = count;
        cursor -= 1;
        copySite(target, source, cursor);
      }
    }
  }
  target.count = source.count;
  target.head = source.head;
  target.cursor = source.cursor;
  target.written = source.written;
  target.rescaled = source.rescaled;
}
