import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicTemporary } from './atomic-temporary.js';

/**
 * Writes `data` to a temporary file beside `path` ({@link atomicTemporary}), flushes it to disk,
 * renames it over `path` and flushes the directory, so the rename itself survives a power loss:
 * readers never see a partial file, and after a crash either the old or the new file is there
 * (plus, after a SIGKILL mid-write, a temporary file that `SnapshotDirectory` removes when next used).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = atomicTemporary.pathFor(path);
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (process.platform !== 'win32') await syncDirectory(dirname(path));
}

/** Flushes a directory's entries (a rename into it) to disk; Windows cannot open a directory for that. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
