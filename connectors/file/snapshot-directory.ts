import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import type { JsonValue } from '../../src/core/model-snapshot.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import type { SnapshotEvent } from '../../src/core/snapshot-event.js';
import { restoreSnapshotEvent, type SnapshotExpectation } from '../../src/restore-snapshot-event.js';
import { optionChecks } from '../../src/core/option-checks.js';
import type { Checkpoint, Checkpointer } from '../../operators/checkpointer.js';
import { atomicTemporary } from './atomic-temporary.js';
import { writeFileAtomic } from './write-file-atomic.js';

const NAME = /^snapshot-(\d{12})\.vbsnap$/;

/**
 * A snapshot store in a local directory: `snapshot-<sequence>.vbsnap` files (the envelope of
 * `encodeSnapshotEvent`), each written atomically (temporary file, fsync, rename), keeping the
 * newest `keep`. The latest is the one with the highest sequence number. `dir` may be written any
 * way (`./snapshots`, `snapshots/`, `../x/snapshots`): it is resolved once, against the working
 * directory, to the absolute path in {@link dir}.
 */
export class SnapshotDirectory implements Checkpointer {
  readonly dir: string;
  private opened: Promise<void> | undefined;

  constructor(dir: string, readonly keep = 5, private readonly meta: { readonly [key: string]: JsonValue } = {}) {
    optionChecks.positiveInteger('keep', keep, Number.NaN);
    this.dir = resolve(dir);
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
    return (await this.checkpoint(event)).location;
  }

  /** {@link save} as a runtime `Checkpointer`: a file's position lives in its snapshot, so durable is done. */
  async checkpoint(event: SnapshotEvent): Promise<Checkpoint> {
    await mkdir(this.dir, { recursive: true });
    await this.open();
    const existing = await this.list();
    const last = existing.length === 0 ? 0 : Number((NAME.exec(basename(existing[existing.length - 1])) as RegExpExecArray)[1]);
    const path = join(this.dir, `snapshot-${String(last + 1).padStart(12, '0')}.vbsnap`);
    const bytes = encodeSnapshotEvent(event, this.meta);
    await writeFileAtomic(path, bytes);
    for (const old of [...existing, path].slice(0, -this.keep)) await rm(old, { force: true });
    return { event, location: path, bytes: bytes.byteLength };
  }

  /**
   * Restores the newest snapshot (or `undefined` when there is none). A corrupt, truncated,
   * foreign-family or wrong-version file is refused with a `SnapshotError` naming it — never
   * silently skipped for an older one.
   */
  async restoreLatest(expect: SnapshotExpectation = {}): Promise<{ model: OnlineModel; event: SnapshotEvent; meta: { readonly [key: string]: JsonValue }; path: string } | undefined> {
    await this.open();
    const files = await this.list();
    if (files.length === 0) return undefined;
    const path = files[files.length - 1];
    const bytes = new Uint8Array(await readFile(path));
    return { ...restoreSnapshotEvent(bytes, path, expect), path };
  }

  /** Removes stale temporary snapshot files, once per instance (again after a failure). */
  private open(): Promise<void> {
    this.opened ??= this.removeStaleTemporaries().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  private async removeStaleTemporaries(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) if (atomicTemporary.isStale(name, NAME)) await rm(join(this.dir, name), { force: true });
  }
}
