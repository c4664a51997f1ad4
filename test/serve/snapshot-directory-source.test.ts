import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import type { SnapshotError } from '../../src/core/snapshot-error.js';
import type { OnlineModel } from '../../src/core/online-model.js';
import { getFamily } from '../../src/registry.js';
import { HotSwappedPosterior } from '../../serve/hot-swapped-posterior.js';
import { SnapshotDirectorySource } from '../../serve/snapshot-directory-source.js';
import { logisticData } from '../helpers/synthetic-data.js';
import { waitFor } from '../helpers/wait-for.js';

describe('SnapshotDirectorySource: the snapshots of `vbstream run` (file sources)', () => {
  let dir = '';
  let store: SnapshotDirectory;
  const refusals: SnapshotError[] = [];
  const posterior = new HotSwappedPosterior({ family: 'adf-logit', dim: 3, onRefuse: (error) => refusals.push(error) });
  let source: SnapshotDirectorySource;

  const save = async (family: string, dim: number, records: number): Promise<OnlineModel> => {
    const data = logisticData(records, dim, records);
    const model = getFamily(family).create(dim, {});
    model.update({ x: data.x, y: data.y, n: data.n, d: dim });
    await store.save({ snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { data: records }, createdAt: '2030-01-02T03:04:05.000Z', reason: 'records' });
    return model;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vbstream-serve-dir-'));
    store = new SnapshotDirectory(dir, 3);
  });
  afterAll(async () => {
    await source?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loads the newest snapshot before start resolves, swaps in newer ones, and refuses a corrupt file or another family once each, serving the last good one', async () => {
    await save('adf-logit', 3, 100);
    const second = await save('adf-logit', 3, 200);
    source = new SnapshotDirectorySource(dir, { pollMs: 20 });
    await source.start(posterior);
    expect(posterior.current).toMatchObject({ version: 'file:2', createdAt: Date.parse('2030-01-02T03:04:05.000Z'), origin: join(dir, 'snapshot-000000000002.vbsnap') });
    expect(posterior.current?.model.recordsSeen).toBe(second.recordsSeen);

    await save('adf-logit', 3, 300);
    await waitFor(() => posterior.current?.version === 'file:3', 'the newer snapshot');
    await writeFile(join(dir, 'snapshot-000000000004.vbsnap'), 'not a snapshot');
    await waitFor(() => refusals.length === 1, 'the corrupt snapshot refused');
    expect(refusals[0].message).toContain('snapshot-000000000004.vbsnap');
    await save('vb-logit-online', 3, 50);
    await waitFor(() => refusals.length === 2, 'the snapshot of another family refused');
    expect(refusals[1]).toMatchObject({ kind: 'snapshot', location: { field: 'family', source: join(dir, 'snapshot-000000000005.vbsnap') } });
    expect(posterior.current?.version).toBe('file:3');
    await save('adf-logit', 3, 400);
    await waitFor(() => posterior.current?.version === 'file:6', 'a good snapshot after the refused ones');
    expect(refusals).toHaveLength(2);
    expect(posterior.swaps).toBe(3);
  });
});
