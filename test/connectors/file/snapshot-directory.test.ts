import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SnapshotDirectory } from '../../../connectors/file/snapshot-directory.js';
import { writeFileAtomic } from '../../../connectors/file/write-file-atomic.js';
import type { SnapshotEvent } from '../../../src/core/snapshot-event.js';
import { getFamily } from '../../../src/registry.js';

/** Every `open`, handle `sync` and `rename` of node:fs/promises, in order (the module is the real one, observed). */
const calls: string[] = [];
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = async (path, ...rest) => {
    const handle = await fs.open(path, ...rest);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      calls.push(`sync ${String(path)}`);
      return sync();
    };
    return handle;
  };
  const rename: typeof fs.rename = async (from, to) => {
    calls.push(`rename ${String(to)}`);
    return fs.rename(from, to);
  };
  return { ...fs, open, rename, default: { ...fs, open, rename } };
});

const work = mkdtempSync(join(tmpdir(), 'vbstream-snapdir-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeEach(() => { calls.length = 0; });

function event(): SnapshotEvent {
  const model = getFamily('vb-linear').create(2);
  return { snapshot: model.snapshot(), recordsSeen: 0, positions: {}, createdAt: '2025-01-02T03:04:05.678Z', reason: 'records' };
}

/** The pid of a process that has exited (what a SIGKILLed writer leaves in its temporary file names). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('writeFileAtomic', () => {
  it('fsyncs the file, renames it into place, then fsyncs the directory so the rename itself is durable', async () => {
    const dir = join(work, 'fsync');
    mkdirSync(dir);
    const path = join(dir, 'out.json');
    await writeFileAtomic(path, '{}');
    const renamed = calls.indexOf(`rename ${path}`);
    expect(renamed).toBeGreaterThan(0);
    expect(calls.slice(0, renamed).some((c) => c.startsWith(`sync ${dir}/.out.json.`))).toBe(true);
    expect(calls.slice(renamed + 1)).toContain(`sync ${dir}`);
  });
});

describe('SnapshotDirectory temporary files', () => {
  it('removes the temporary files a killed writer left when the directory is next used, and only those', async () => {
    const dir = join(work, 'stale');
    mkdirSync(dir);
    const dead = deadPid();
    const stale = [`.snapshot-000000000003.vbsnap.${dead}.1700000000000.tmp`, `.snapshot-000000000001.vbsnap.${process.pid}.1000.tmp`];
    const foreign = ['notes.tmp', `.snapshot-000000000003.vbsnap.${process.ppid}.${Date.now()}.tmp`, '.other.vbsnap.1.2.tmp', 'snapshot-000000000002.vbsnap'];
    for (const name of [...stale, ...foreign]) writeFileSync(join(dir, name), 'x');
    const store = new SnapshotDirectory(dir);
    await store.restoreLatest().catch(() => undefined);
    for (const name of stale) expect(existsSync(join(dir, name)), name).toBe(false);
    for (const name of foreign) expect(existsSync(join(dir, name)), name).toBe(true);
    rmSync(join(dir, 'snapshot-000000000002.vbsnap'));
    writeFileSync(join(dir, stale[0]), 'x');
    await new SnapshotDirectory(dir).save(event());
    expect(readdirSync(dir).sort()).toEqual([...foreign.slice(0, 3), 'snapshot-000000000001.vbsnap'].sort());
  });
});
