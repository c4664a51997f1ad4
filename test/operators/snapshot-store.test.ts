import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotDirectory } from '../../connectors/file/snapshot-directory.js';
import { encodeSnapshotEvent } from '../../src/core/encode-snapshot-event.js';
import { packRecords } from '../../operators/pack-records.js';
import { restoreSnapshotEvent } from '../../src/restore-snapshot-event.js';
import type { SnapshotEvent } from '../../src/core/snapshot-event.js';
import { encodeSnapshot } from '../../src/core/encode-snapshot.js';
import { SnapshotError } from '../../src/core/snapshot-error.js';
import { families, getFamily } from '../../src/registry.js';
import { expectSameState } from '../helpers/same-state.js';
import { taskRecords } from '../helpers/task-data.js';

const work = mkdtempSync(join(tmpdir(), 'vbstream-snap-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function trainedEvent(id: string, n = 50): SnapshotEvent {
  const family = getFamily(id);
  const model = family.create(3);
  model.update(packRecords(taskRecords(family.task, n, 3, 9), 3).batch);
  return { snapshot: model.snapshot(), recordsSeen: model.recordsSeen, positions: { 'topic/0': n, file: 7 }, createdAt: '2025-01-02T03:04:05.678Z', reason: 'records' };
}

describe('snapshot envelope and directory store', () => {
  it.each([...families.keys()])('%s: save → restoreLatest rebuilds the model bit for bit with its envelope', async (id) => {
    const store = new SnapshotDirectory(join(work, id), 3);
    const event = trainedEvent(id);
    const path = await store.save(event);
    const restored = await store.restoreLatest({ family: id, dim: 3 });
    expect(restored!.path).toBe(path);
    expect(restored!.event).toEqual({ ...event, snapshot: expect.anything() });
    expectSameState(restored!.model.snapshot(), event.snapshot);
    expect(restored!.model.recordsSeen).toBe(50);
  });

  it('keeps the last K, numbers files in order, leaves no temporary files, and an empty store restores nothing', async () => {
    const store = new SnapshotDirectory(join(work, 'keep'), 2);
    expect(await store.restoreLatest()).toBeUndefined();
    for (let n = 10; n <= 40; n += 10) await store.save(trainedEvent('vb-linear', n));
    expect(readdirSync(join(work, 'keep'))).toEqual(['snapshot-000000000003.vbsnap', 'snapshot-000000000004.vbsnap']);
    expect((await store.restoreLatest())!.event.recordsSeen).toBe(40);
  });

  const corrupt: [string, (bytes: Uint8Array) => Uint8Array, RegExp][] = [
    ['truncated', (b) => b.subarray(0, b.length - 9), /checksum mismatch|truncated|does not match/],
    ['a flipped byte', (b) => { const c = b.slice(); c[40] ^= 0x01; return c; }, /checksum mismatch/],
    ['empty', () => new Uint8Array(0), /truncated: 0 bytes/],
  ];
  it.each(corrupt)('refuses a %s file with a SnapshotError naming the file', async (_, damage, message) => {
    const dir = join(work, `bad-${_.replace(/\W/g, '')}`);
    const store = new SnapshotDirectory(dir);
    const path = await store.save(trainedEvent('vb-logit-online'));
    writeFileSync(path, damage(new Uint8Array(readFileSync(path))));
    const failure = await store.restoreLatest().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SnapshotError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).toContain(path);
  });

  it('refuses a foreign family, another dimension, an unknown family, a wrong family version and a foreign envelope', () => {
    const event = trainedEvent('vb-logit-online');
    const bytes = encodeSnapshotEvent(event);
    const refuse = (b: Uint8Array, expect_: { family?: string; dim?: number }) => { try { restoreSnapshotEvent(b, 'src', expect_); } catch (e) { return e as SnapshotError; } throw new Error('accepted'); };
    expect(refuse(bytes, { family: 'vb-linear' }).message).toMatch(/family "vb-logit-online", the pipeline runs "vb-linear" \(src, field family/);
    expect(refuse(bytes, { dim: 4 }).message).toMatch(/has 3 features, the pipeline has 4/);
    const meta = { envelope: 1, createdAt: event.createdAt, recordsSeen: 1, positions: {}, reason: 'records' };
    expect(refuse(encodeSnapshot({ ...event.snapshot, family: 'pg-logit-nope' }, meta), {}).message).toMatch(/unknown model family "pg-logit-nope"/);
    expect(refuse(encodeSnapshot({ ...event.snapshot, version: 99 }, meta), {}).message).toMatch(/version 99 is not supported/);
    expect(refuse(encodeSnapshot(event.snapshot, { ...meta, envelope: 2 }), {}).message).toMatch(/envelope version 2/);
    expect(refuse(encodeSnapshot(event.snapshot, {}), {})).toBeInstanceOf(SnapshotError);
    for (const e of [refuse(bytes, { family: 'vb-linear' }), refuse(encodeSnapshot({ ...event.snapshot, version: 99 }, meta), {})]) expect(e).toBeInstanceOf(SnapshotError);
  });
});
