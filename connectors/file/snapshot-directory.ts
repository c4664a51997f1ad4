import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeSnapshotEvent } from '../../operators/encode-snapshot-event.js';
import { restoreSnapshotEvent } from '../../operators/restore-snapshot-event.js';
import type { SnapshotEvent } from '../../operators/snapshot-event.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { optionChecks } from '../../src/core/option-checks.js';
import { writeFileAtomic } from './write-file-atomic.js';

const NAME = /^snapshot-(\d{12})\.vbsnap$/;

/**
 * A snapshot store in a local directory: `snapshot-<sequence>.vbsnap` files (the envelope of
 * `encodeSnapshotEvent`), each written atomically (temporary file, fsync, rename), keeping the
 * newest `keep`. The latest is the one with the highest sequence number.
 */
export class SnapshotDirectory {
  constructor(readonly dir: string, readonly keep = 5) {
    optionChecks.positiveInteger('keep', keep, Number.NaN);
  }

  /** Snapshot files, oldest first (absolute paths). */
  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.filter((n) => NAME.test(n)).sort().map((n) => join(this.dir, n));
  }

  /** Writes the snapshot as the newest file, prunes beyond `keep`, and returns its path. */
  async save(event: SnapshotEvent): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const existing = await this.list();
    const last = existing.length === 0 ? 0 : Number(NAME.exec(existing[existing.length - 1].slice(this.dir.length + 1))![1]);
    const path = join(this.dir, `snapshot-${String(last + 1).padStart(12, '0')}.vbsnap`);
    await writeFileAtomic(path, encodeSnapshotEvent(event));
    for (const old of [...existing, path].slice(0, -this.keep)) await rm(old, { force: true });
    return path;
  }

  /**
   * Restores the newest snapshot (or `undefined` when there is none). A corrupt, truncated,
   * foreign-family or wrong-version file is refused with a `SnapshotError` naming it — never
   * silently skipped for an older one.
   */
  async restoreLatest(expect: { readonly family?: string; readonly dim?: number } = {}): Promise<{ model: OnlineModel; event: SnapshotEvent; path: string } | undefined> {
    const files = await this.list();
    if (files.length === 0) return undefined;
    const path = files[files.length - 1];
    const bytes = new Uint8Array(await readFile(path));
    return { ...restoreSnapshotEvent(bytes, path, expect), path };
  }
}
