import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { SnapshotDirectory } from '../connectors/file/snapshot-directory.js';
import { decodeSnapshotEvent } from '../src/core/decode-snapshot-event.js';
import type { PosteriorSink } from './posterior-sink.js';
import type { PosteriorSource } from './posterior-source.js';

/** Options of {@link SnapshotDirectorySource}. */
export interface SnapshotDirectorySourceOptions {
  /** How often the directory is looked at, ms; default 500. */
  readonly pollMs?: number;
}

const sequenceOf = (path: string): number => Number(/snapshot-(\d+)\.vbsnap$/.exec(basename(path))?.[1]);

/**
 * The snapshots `vbstream run` writes to a directory (a `SnapshotDirectory`, file sources): polls it
 * every `pollMs` and offers its newest snapshot whenever one newer than the last offered appears
 * (version `file:<n>`, n the file's sequence number, which grows with every snapshot the directory
 * keeps). A file that cannot be read or decoded is refused once and passed over; one pruned between
 * the listing and the read is looked for again at the next poll.
 */
export class SnapshotDirectorySource implements PosteriorSource {
  readonly description: string;
  private readonly store: SnapshotDirectory;
  private readonly pollMs: number;
  private last = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The last listing failure reported (one report per distinct failure). */
  private problem: string | undefined;

  constructor(dir: string, options: SnapshotDirectorySourceOptions = {}) {
    this.store = new SnapshotDirectory(dir);
    this.pollMs = options.pollMs ?? 500;
    this.description = `snapshots in ${this.store.dir}`;
  }

  /** Offers the newest snapshot there is (before resolving), then polls. */
  async start(sink: PosteriorSink): Promise<void> {
    this.stopped = false;
    await this.poll(sink);
    const loop = (): void => {
      this.timer = setTimeout(() => { void this.poll(sink).finally(() => { if (!this.stopped) loop(); }); }, this.pollMs);
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async poll(sink: PosteriorSink): Promise<void> {
    let files: string[];
    try {
      files = await this.store.list();
      this.problem = undefined;
    } catch (error) {
      const message = (error as Error).message;
      if (message !== this.problem) sink.refuse(this.store.dir, error);
      this.problem = message;
      return;
    }
    const newest = files[files.length - 1];
    if (newest === undefined || sequenceOf(newest) <= this.last) return;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(newest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.last = sequenceOf(newest);
      sink.refuse(newest, error);
      return;
    }
    if (this.stopped) return;
    this.last = sequenceOf(newest);
    let event;
    try {
      ({ event } = decodeSnapshotEvent(bytes, newest));
    } catch (error) {
      sink.refuse(newest, error);
      return;
    }
    sink.offer({ snapshot: event.snapshot, version: `file:${this.last}`, createdAt: Date.parse(event.createdAt), origin: newest });
  }
}
